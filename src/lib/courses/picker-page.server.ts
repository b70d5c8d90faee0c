import { answerOf } from "../api/answer.ts";
import type { ServerApi } from "../api/server-api.server.ts";
import { feeStatus } from "../../../common/payments/fee-status.ts";
import { PaymentInfo } from "../../../common/payments/payment-record.ts";
import { CourseList, PickerView, SessionList } from "../../../common/courses/registered-course.ts";
import type { PickerForm } from "./picker-form.ts";
import { SEARCH_MIN_CHARACTERS } from "./picker-notices.ts";

const NOTHING_REGISTERED: PickerView = {
  data: { session: null, view: { data: [], approvals: [], returns: [] }, carry_overs: [] },
};

// The session's registrations at every level (carry-overs count against the cap as on the
// server) and its carry-overs (required ones are pre-selected, decision 180): one answer from one
// read of the registration record (decision 204).
const pickerViewPath = (session?: string) =>
  `/courses/picker-view?${new URLSearchParams(session ? { session } : {})}`;

/**
 * Everything the course picker shows for one state of its form, fetched together in one round
 * trip from the page server: sessions, fee status, the session's registrations, the courses at
 * the level, the session's carry-overs and the course-code search. Without a session in the form the API answers the
 * current one, which the session list marks.
 */
export async function loadPicker(api: ServerApi, studentId: number, form: PickerForm) {
  const search =
    form.code.length >= SEARCH_MIN_CHARACTERS
      ? api.get(
          `/courses/all/?${new URLSearchParams({ code: form.code, ...(form.level ? { level: form.level } : {}) })}`,
          CourseList,
        )
      : null;
  const [sessions, paymentInfo, viewAsked, offered, found] = await Promise.all([
    api.get("/setup/sessions/read", SessionList),
    api.get(`/student/payment-info/${studentId}`, answerOf(PaymentInfo)),
    form.session === ""
      ? NOTHING_REGISTERED
      : api.get(pickerViewPath(form.session ?? undefined), PickerView),
    form.level ? api.get(`/courses/mapped/read?mapped_level=${form.level}`, CourseList) : null,
    search,
  ]);
  const list = sessions.data.data.map(({ name, course_modifiable }) => ({
    name,
    course_modifiable,
  }));
  const current = sessions.data.data.find((entry) => entry.is_current) ?? sessions.data.data[0];
  // A session typed into the address that does not exist: show the current one instead.
  const session =
    form.session === ""
      ? ""
      : (list.find((entry) => entry.name === form.session)?.name ?? current?.name ?? "");
  const asked = !form.session || form.session === session;
  const { view: registered, carry_overs: carryOvers } = (
    asked ? viewAsked : await api.get(pickerViewPath(session), PickerView)
  ).data;
  const fees = paymentInfo.data.school_fees_payment;
  return {
    sessions: list,
    session,
    fee: { ...feeStatus(fees.payment_complete), session: fees.session },
    registered,
    carryOvers,
    offered: offered?.data.data ?? [],
    searchResults: found?.data.data ?? null,
  };
}
