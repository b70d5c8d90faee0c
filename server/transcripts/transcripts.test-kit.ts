import { eq } from "drizzle-orm";
import {
  courseOfferings,
  courseScores,
  courses,
  resultPublications,
  transcriptRequests,
} from "../db/schema.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";
import { createPaymentsKit } from "../payments/payments.test-kit.ts";
import type { HarnessOverrides } from "../testing/api-harness.test-kit.ts";

let sequence = 0;

/**
 * The payments kit with a bursar and an exams officer signed in, and the steps of a transcript:
 * set the fee, publish a semester for the harness's programme, request, pay at the sandbox, release.
 */
export async function createTranscriptsKit(overrides: HarnessOverrides = {}) {
  const kit = await createPaymentsKit(overrides);
  const { api } = kit;
  const bursarMember = await createStaff(api, { roles: ["bursar"], totp: true });
  const bursar = await staffSignIn(api, bursarMember);
  const examsMember = await createStaff(api, { roles: ["exams"], totp: true });
  const exams = await staffSignIn(api, examsMember);

  const setFee = (amountNaira: string | number, token = bursar) =>
    api.request("/staff/fees/other", {
      method: "POST",
      token,
      json: { kind: "transcript", amount_naira: amountNaira },
    });

  /**
   * Publishes 2024/2025's first semester for the harness's programme with one course for each
   * student given (CA and exam as given), straight in the database: the chain itself is tested
   * in server/results.
   */
  async function publishSemester(scores: { studentId: number; ca: number; exam: number }[]) {
    sequence += 1;
    const [course] = await api.db
      .insert(courses)
      .values({
        code: `TRN ${100 + sequence}`,
        title: "Transcript test course",
        unit: 3,
        semester: 1,
      })
      .returning();
    const [offering] = await api.db
      .insert(courseOfferings)
      .values({
        courseId: course!.id,
        session: "2024/2025",
        semester: 1,
        departmentId: api.school.departments[0]!.id,
        status: "approved",
      })
      .returning();
    for (const score of scores) {
      await api.db.insert(courseScores).values({
        offeringId: offering!.id,
        studentId: score.studentId,
        ca: score.ca,
        exam: score.exam,
        enteredBy: examsMember.id,
        updatedAt: api.clock.now(),
      });
    }
    await api.db
      .insert(resultPublications)
      .values({
        programmeId: api.school.programmes[0]!.id,
        session: "2024/2025",
        semester: 1,
        boardMeetingOn: "2025-03-14",
        minuteReference: "AB/2025/03/7",
        publishedBy: examsMember.id,
        publishedAt: api.clock.now(),
      })
      .onConflictDoNothing();
  }

  async function newStudent(matricNo?: string) {
    sequence += 1;
    return kit.newStudent({ matricNo: matricNo ?? `NCE/TRN/${String(sequence).padStart(4, "0")}` });
  }

  const requestTranscript = (token: string, json: unknown) =>
    api.request("/student/transcripts", { method: "POST", token, json });

  /** Requests a transcript and answers its id (fails the test on anything but 201). */
  async function requested(token: string, json: unknown = { recipient: "self" }) {
    const response = await requestTranscript(token, json);
    if (response.status !== 201)
      throw new Error(`request: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: { id: number } }).data.id;
  }

  const pay = (token: string, id: number) =>
    api.request(`/student/transcripts/${id}/pay`, { method: "POST", token });

  /** Starts the payment and answers its reference (fails the test on anything but pending). */
  async function startPaying(token: string, id: number) {
    const body = (await (await pay(token, id)).json()) as { status: string; reference: string };
    if (body.status !== "pending") throw new Error(`could not start: ${JSON.stringify(body)}`);
    return body.reference;
  }

  /** Requests, pays at the sandbox and verifies as the Transcript page does; answers the request's id. */
  async function paidRequest(token: string, json: unknown = { recipient: "self" }) {
    const id = await requested(token, json);
    const reference = await startPaying(token, id);
    await kit.payAtSandbox(reference);
    const verified = await kit.verify(reference, token);
    if (verified.status !== 200) throw new Error(`verify: ${verified.status}`);
    return { id, reference };
  }

  const release = (id: number, token = exams) =>
    api.request(`/staff/transcripts/${id}/release`, { method: "POST", token });

  async function releasedReference(id: number) {
    const [row] = await api.db
      .select({ reference: transcriptRequests.reference })
      .from(transcriptRequests)
      .where(eq(transcriptRequests.id, id));
    return row!.reference;
  }

  const mine = async (token: string) =>
    (
      (await (await api.request("/student/transcripts", { token })).json()) as {
        data: {
          fee_kobo: number | null;
          requests: { id: number; state: string; url: string | null; reference: string | null }[];
        };
      }
    ).data;

  return {
    ...kit,
    bursar,
    exams,
    examsMember,
    setFee,
    publishSemester,
    newStudent,
    requestTranscript,
    requested,
    pay,
    startPaying,
    paidRequest,
    release,
    releasedReference,
    mine,
  };
}
export type TranscriptsKit = Awaited<ReturnType<typeof createTranscriptsKit>>;
