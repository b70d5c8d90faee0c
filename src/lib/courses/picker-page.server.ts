import { answerOf } from "../api/answer.ts";
import type { ServerApi } from "../api/server-api.server.ts";
import { feeStatus } from "../../../common/payments/fee-status.ts";
import { PaymentInfo } from "../../../common/payments/payment-record.ts";
import {
  CarryOverList,
  CourseList,
  SessionList,
  StudentView,
} from "../../../common/courses/registered-course.ts";
import type { PickerForm } from "./picker-form.ts";
import { SEARCH_MIN_CHARACTERS } from "./picker-notices.ts";

const NOTHING_REGISTERED: StudentView = { data: [], approvals: [], returns: [] };
const NO_CARRY_OVERS: CarryOverList = { data: { session: null, carry_overs: [] } };

// The session's registrations at every level: carry-overs count against the cap as on the server.
const viewPath = (session?: string) =>
  `/courses/student-view?${new URLSearchParams(session ? { session } : {})}`;
// The session's carry-overs: required ones are pre-selected (decision 180).
const carryOverPath = (session?: string) =>
  `/courses/carry-overs?${new URLSearchParams(session ? { session } : {})}`;

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
  const [sessions, paymentInfo, registeredAsked, carryOversAsked, offered, found] =
    await Promise.all([
      api.get("/setup/sessions/read", SessionList),
      api.get(`/student/payment-info/${studentId}`, answerOf(PaymentInfo)),
      form.session === ""
        ? NOTHING_REGISTERED
        : api.get(viewPath(form.session ?? undefined), StudentView),
      form.session === ""
        ? NO_CARRY_OVERS
        : api.get(carryOverPath(form.session ?? undefined), CarryOverList),
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
  const [registered, carryOvers] = asked
    ? [registeredAsked, carryOversAsked]
    : await Promise.all([
        api.get(viewPath(session), StudentView),
        api.get(carryOverPath(session), CarryOverList),
      ]);
  const fees = paymentInfo.data.school_fees_payment;
  return {
    sessions: list,
    session,
    fee: { ...feeStatus(fees.payment_complete), session: fees.session },
    registered,
    carryOvers: carryOvers.data.carry_overs,
    offered: offered?.data.data ?? [],
    searchResults: found?.data.data ?? null,
  };
}
