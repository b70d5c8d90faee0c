import type { ApiDeps } from "../deps.ts";
import { ApiError } from "../http/errors.ts";
import type { ExamCardAnswer, ExamCardCheck } from "../../common/results/exam-card.ts";
import { totalUnits } from "../../common/courses/registration-status.ts";
import { currentSessionName } from "../students/student-record.ts";
import { semesterReviews } from "../courses/advising/semester-review.ts";
import { slipPhoto } from "../payments/slip-photo.ts";
import { readSignedToken, signToken } from "../verification/signed-token.ts";
import { cardHolder, recordId, type CardHolder } from "../verification/card-holder.ts";
import { paidOptions, semesterFee } from "./fee-gate.ts";
import { publishedSemesters } from "./publication.ts";

type CardDeps = Pick<ApiDeps, "db" | "publicOrigin" | "slipSigningKey" | "photos">;
type Semester = 1 | 2;
type Missing = Extract<ExamCardAnswer, { issued: false }>["missing"];

const ordinal = (semester: Semester) => (semester === 1 ? "first" : "second");
const TO_PAYMENTS = { href: "/payment", link_label: "Go to Payments" };
const TO_REGISTRATION = { href: "/course-reg", link_label: "Go to Course Registration" };

/**
 * The semester an exam card is for when the student does not choose: the second once the
 * programme's first semester of the session is published (its exams are behind), the first
 * until then (decision 181).
 */
async function currentSemester(deps: CardDeps, programmeId: number, session: string) {
  const published = await publishedSemesters(deps.db, programmeId);
  return published.some((each) => each.session === session && each.semester === 1) ? 2 : 1;
}

/** Everything that stands between the student and the card: fee first, then registration. */
async function whatIsMissing(
  deps: CardDeps,
  studentId: number,
  session: string,
  semester: Semester,
) {
  const missing: Missing = [];
  const fee = semesterFee(await paidOptions(deps.db, studentId, session), semester);
  if (fee === "none")
    missing.push({
      gap: "fee_not_paid",
      message: `Your ${session} school fees are not paid. The exam card is issued once they are.`,
      ...TO_PAYMENTS,
    });
  if (fee === "part")
    missing.push({
      gap: "second_installment",
      message: `You paid the first installment of your ${session} school fees; the second semester's exam card needs the second installment too.`,
      ...TO_PAYMENTS,
    });
  const review = (await semesterReviews(deps.db, studentId, session)).find(
    (each) => each.semester === semester,
  )!;
  if (review.status === "not_submitted")
    missing.push({
      gap: "registration_not_submitted",
      message: `You have not registered any courses for the ${ordinal(semester)} semester of ${session}. Register them and your course adviser approves them.`,
      ...TO_REGISTRATION,
    });
  if (review.status === "pending")
    missing.push({
      gap: "registration_pending",
      message: `Your ${ordinal(semester)} semester course registration for ${session} is waiting for your course adviser's approval.`,
      ...TO_REGISTRATION,
    });
  if (review.status === "returned")
    missing.push({
      gap: "registration_returned",
      message: `Your course adviser returned your ${ordinal(semester)} semester course registration for ${session} with a note: “${review.note ?? ""}”. Change it as asked; it then waits for approval again.`,
      ...TO_REGISTRATION,
    });
  return { missing, courses: review.courses };
}

/** The card of one semester, or what is missing for it; the same rules issue and verify it. */
async function cardFor(
  deps: CardDeps,
  studentId: number,
  holder: CardHolder,
  session: string,
  semester: Semester,
): Promise<ExamCardAnswer> {
  const { missing, courses } = await whatIsMissing(deps, studentId, session, semester);
  if (missing.length > 0) return { issued: false, session, semester, missing };
  // A semester registered at one level (the usual case) prints that level; the highest otherwise.
  const levels = courses.map((course) => course.registration_level ?? holder.level);
  return {
    issued: true,
    session,
    semester,
    card: {
      name: holder.name,
      matric_no: holder.matricNo,
      programme: holder.programme,
      level: Math.max(...levels),
      session,
      semester,
      courses: courses.map((course) => ({
        code: course.code,
        title: course.title,
        units: Number(course.unit),
      })),
      total_units: totalUnits(courses),
      passport: await slipPhoto(deps.photos, holder.photo),
    },
    verify_url: `${deps.publicOrigin}/verify/exam-card/${signToken(
      "exam-card",
      `${studentId}:${session}:${semester}`,
      deps.slipSigningKey,
    )}`,
  };
}

/** GET /student/exam-card: the signed-in student's card for a semester of the current session. */
export async function examCard(
  deps: CardDeps,
  studentId: number,
  asked: Semester | undefined,
): Promise<ExamCardAnswer> {
  const session = await currentSessionName(deps.db);
  if (!session)
    return {
      issued: false,
      session: null,
      semester: asked ?? 1,
      missing: [
        {
          gap: "no_session",
          message: "The college has not opened a session yet, so no exam card can be issued.",
          href: null,
          link_label: null,
        },
      ],
    };
  const holder = (await cardHolder(deps.db, studentId))!;
  const semester = asked ?? (await currentSemester(deps, holder.programmeId, session));
  return cardFor(deps, studentId, holder, session, semester);
}

const NOT_GENUINE =
  "This exam card could not be verified. It was not issued by this portal, it has been altered, or it no longer holds (its fee or course registration changed).";

/**
 * GET /exam-cards/verify/:token (public): the card as the rules issue it today. A forged or
 * altered token, another document's token, or a card that no longer holds is a 404.
 */
export async function checkExamCard(deps: CardDeps, token: string): Promise<ExamCardCheck> {
  const read = readSignedToken(token, deps.slipSigningKey, ["exam-card"]);
  const parts = read && /^(\d+):(\d{4}\/\d{4}):([12])$/.exec(read.subject);
  const studentId = parts ? recordId(parts[1]!) : null;
  const holder = studentId ? await cardHolder(deps.db, studentId) : null;
  if (!parts || !studentId || !holder) throw new ApiError(404, NOT_GENUINE);
  const answer = await cardFor(deps, studentId, holder, parts[2]!, Number(parts[3]) as Semester);
  if (!answer.issued) throw new ApiError(404, NOT_GENUINE);
  return answer.card;
}
