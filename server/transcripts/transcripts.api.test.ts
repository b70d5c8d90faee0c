import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditLog,
  feeSchedule,
  feeStatusFlags,
  payments,
  students,
  transcriptRequests,
} from "../db/schema.ts";
import { mailJobsTo } from "../testing/mail-jobs.test-kit.ts";
import { slipToken } from "../payments/slip-token.ts";
import { NOT_GENUINE } from "../../common/transcripts/transcripts.ts";
import { transcriptToken } from "./transcript-token.ts";
import { createTranscriptsKit, type TranscriptsKit } from "./transcripts.test-kit.ts";

let kit: TranscriptsKit;
beforeAll(async () => {
  kit = await createTranscriptsKit();
});
afterAll(() => kit.api.close());

const json = async (response: Response) => (await response.json()) as Record<string, any>;
const tokenIn = (url: string | null) => url?.split("/transcripts/")[1] ?? "";

describe("before the bursar sets a transcript fee", () => {
  it("a request is refused, saying why, and nothing is kept", async () => {
    const me = await kit.newStudent();
    const response = await kit.requestTranscript(me.token, { recipient: "self" });
    expect(response.status).toBe(409);
    expect((await json(response)).message).toMatch(/has not set the transcript fee/);
    expect((await kit.mine(me.token)).requests).toEqual([]);
    expect((await kit.mine(me.token)).fee_kobo).toBeNull();
  });
});

describe("the transcript fee, a kind of fee beside school fees", () => {
  it("is set by the bursar, changed while unpaid, and kept out of the school-fee schedule", async () => {
    expect((await kit.setFee("6,000")).status).toBe(200);
    const changed = await kit.setFee(5000);
    expect((await json(changed)).message).toBe("Transcript fee is now ₦5,000.");
    const page = await json(await kit.api.request("/staff/fees", { token: kit.bursar }));
    expect(page.other_fees).toEqual([
      {
        kind: "transcript",
        label: "Transcript fee",
        fee: {
          id: expect.any(Number),
          amount_kobo: 500_000,
          credited_payments: 0,
          gateways: [],
        },
      },
    ]);
    expect(page.data.map((fee: { payment_option: string }) => fee.payment_option)).not.toContain(
      "transcript",
    );
    const audits = await kit.api.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.entity, "fee"));
    expect(audits.map((row) => row.action)).toEqual(["fee.create", "fee.update"]);
  });

  it("refuses amounts that are not naira and kinds it does not know", async () => {
    expect((await kit.setFee("five thousand")).status).toBe(400);
    const unknown = await kit.api.request("/staff/fees/other", {
      method: "POST",
      token: kit.bursar,
      json: { kind: "school_fee", amount_naira: 100 },
    });
    expect(unknown.status).toBe(400);
  });

  it("paid for a transcript counts neither towards school fees nor for the results fee gate", async () => {
    const me = await kit.newStudent();
    await kit.publishSemester([{ studentId: me.student.id, ca: 30, exam: 45 }]);
    const { reference } = await kit.paidRequest(me.token);
    const payment = await kit.paymentRow(reference);
    expect(payment).toMatchObject({
      status: "success",
      kind: "transcript",
      amountKobo: 500_000,
      paymentOption: "transcript",
    });

    const info = await json(
      await kit.api.request(`/student/payment-info/${me.student.id}`, { token: me.token }),
    );
    expect(info.data.school_fees_payment.payment_complete).toBeNull();
    const results = await json(await kit.api.request("/student/results", { token: me.token }));
    expect(results.data.semesters).toEqual([]);
    expect(results.data.withheld).toHaveLength(1);
    // This session's school fee can still be paid in full, as if nothing had been paid.
    expect(await kit.start(me, "full")).toMatch(/^CCE-/);
    const jobs = await mailJobsTo(kit.api.db, me.student.email);
    expect(jobs.map((job) => job.data.subject)).toContain("Payment receipt: Transcript fee");
  });

  it("once paid, is replaced rather than changed, and the paid payment keeps its fee", async () => {
    const replaced = await kit.setFee(7500);
    expect((await json(replaced)).message).toMatch(/from now on/);
    const fees = await kit.api.db
      .select()
      .from(feeSchedule)
      .where(eq(feeSchedule.kind, "transcript"));
    expect(fees.map((fee) => [fee.amountKobo, fee.replacedAt === null])).toEqual([
      [500_000, false],
      [750_000, true],
    ]);
    expect((await kit.mine((await kit.newStudent()).token)).fee_kobo).toBe(750_000);
  });
});

describe("a transcript request", () => {
  it("to an institution needs its name and e-mail address", async () => {
    const me = await kit.newStudent();
    const response = await kit.requestTranscript(me.token, {
      recipient: "institution",
      institution_name: "",
      institution_email: "not an address",
    });
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(Object.keys(body.error.fields).sort()).toEqual([
      "institution_email",
      "institution_name",
    ]);
    expect((await kit.requestTranscript(me.token, { recipient: "someone" })).status).toBe(400);
  });

  it("to myself is refused when the record has no e-mail address", async () => {
    const student = await kit.api.createStudent({ email: null, matricNo: "NCE/TRN/NOMAIL" });
    const token = await kit.api.signIn(student.phone);
    const response = await kit.requestTranscript(token, { recipient: "self" });
    expect(response.status).toBe(400);
    expect((await json(response)).error.fields.recipient).toMatch(/no e-mail address/);
  });

  it("of another student cannot be paid, and one paid answers 'Payment already made'", async () => {
    const me = await kit.newStudent();
    const other = await kit.newStudent();
    const { id } = await kit.paidRequest(me.token);
    expect((await kit.pay(other.token, id)).status).toBe(404);
    expect(await json(await kit.pay(me.token, id))).toMatchObject({
      status: "success",
      message: "Payment already made",
    });
    expect((await kit.mine(me.token)).requests).toMatchObject([{ id, state: "awaiting_release" }]);
  });

  it("paid twice before either was credited keeps one payment and marks the other for a refund", async () => {
    const me = await kit.newStudent();
    const id = await kit.requested(me.token);
    const first = await kit.startPaying(me.token, id);
    const second = await kit.startPaying(me.token, id);
    await kit.payAtSandbox(first);
    await kit.payAtSandbox(second);
    expect((await kit.verify(first, me.token)).status).toBe(200);
    const again = await kit.verify(second, me.token);
    expect(again.status).toBe(409);
    expect((await json(again)).message).toMatch(/refund/);
    const statuses = await kit.api.db
      .select({ status: payments.status })
      .from(payments)
      .where(eq(payments.transcriptRequestId, id))
      .orderBy(payments.id);
    expect(statuses.map((row) => row.status)).toEqual(["success", "duplicate"]);
  });

  it("waits for payment: listed as such, and the exams office cannot release it", async () => {
    const me = await kit.newStudent();
    const id = await kit.requested(me.token);
    expect((await kit.mine(me.token)).requests).toMatchObject([{ id, state: "awaiting_payment" }]);
    const response = await kit.release(id);
    expect(response.status).toBe(409);
    expect((await json(response)).message).toMatch(/not been paid/);
    const waiting = await json(await kit.api.request("/staff/transcripts", { token: kit.exams }));
    expect(waiting.data.awaiting_release.map((row: { id: number }) => row.id)).not.toContain(id);
  });

  it("is refused beyond five unpaid at once", async () => {
    const me = await kit.newStudent();
    for (let i = 0; i < 5; i++) await kit.requested(me.token);
    expect((await kit.requestTranscript(me.token, { recipient: "self" })).status).toBe(409);
  });
});

describe("cancelling a transcript request", () => {
  const cancel = (token: string, id: number | string) =>
    kit.api.request(`/student/transcripts/${id}/cancel`, { method: "POST", token });
  const cancelledAt = async (id: number) =>
    (
      await kit.api.db
        .select({ at: transcriptRequests.cancelledAt })
        .from(transcriptRequests)
        .where(eq(transcriptRequests.id, id))
    )[0]!.at;

  it("is the student's while unpaid: listed as cancelled, audited as theirs, no longer payable or counted", async () => {
    const me = await kit.newStudent();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await kit.requested(me.token));
    const id = ids[0]!;
    const response = await cancel(me.token, id);
    expect(response.status).toBe(200);
    expect((await json(response)).message).toBe("Transcript request cancelled.");
    const listed = (await kit.mine(me.token)).requests.find((row) => row.id === id);
    expect(listed).toMatchObject({
      state: "cancelled",
      cancelled_at: kit.api.clock.now().toISOString(),
      paid_after_cancelling: null,
    });
    const [audit] = await kit.api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "transcript.cancel"), eq(auditLog.entityId, String(id))));
    expect(audit).toMatchObject({
      staffId: null,
      byStudentId: me.student.id,
      entity: "transcript_request",
      before: { status: "awaiting_payment" },
      after: { status: "cancelled" },
    });
    const pay = await kit.pay(me.token, id);
    expect(pay.status).toBe(409);
    expect((await json(pay)).message).toMatch(/cancelled/);
    expect(
      await kit.api.db.select().from(payments).where(eq(payments.transcriptRequestId, id)),
    ).toEqual([]);
    // Five were waiting; the cancelled one no longer holds a place.
    expect((await kit.requestTranscript(me.token, { recipient: "self" })).status).toBe(201);
  });

  it("of another student's request is answered as one that does not exist, and changes nothing", async () => {
    const me = await kit.newStudent();
    const other = await kit.newStudent();
    const id = await kit.requested(other.token);
    const foreign = await cancel(me.token, id);
    const missing = await cancel(me.token, 999_999);
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(await json(foreign)).toEqual(await json(missing));
    expect(await cancelledAt(id)).toBeNull();
    expect((await cancel(me.token, "not-a-number")).status).toBe(400);
    expect(
      (await kit.api.request(`/student/transcripts/${id}/cancel`, { method: "POST" })).status,
    ).toBe(401);
    expect(await cancelledAt(id)).toBeNull();
  });

  it("is refused once paid, once released, and a second time", async () => {
    const me = await kit.newStudent();
    await kit.publishSemester([{ studentId: me.student.id, ca: 30, exam: 40 }]);
    const { id: paid } = await kit.paidRequest(me.token);
    const paidAnswer = await cancel(me.token, paid);
    expect(paidAnswer.status).toBe(409);
    expect((await json(paidAnswer)).message).toMatch(/paid for, so it cannot be cancelled/);
    expect(await cancelledAt(paid)).toBeNull();

    const { id: released } = await kit.paidRequest(me.token);
    expect((await kit.release(released)).status).toBe(200);
    const releasedAnswer = await cancel(me.token, released);
    expect(releasedAnswer.status).toBe(409);
    expect((await json(releasedAnswer)).message).toMatch(/released/);
    expect(await cancelledAt(released)).toBeNull();

    const unpaid = await kit.requested(me.token);
    expect((await cancel(me.token, unpaid)).status).toBe(200);
    const again = await cancel(me.token, unpaid);
    expect(again.status).toBe(409);
    expect((await json(again)).message).toMatch(/cancelled already/);
    const audits = await kit.api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "transcript.cancel"));
    expect(audits.filter((row) => row.byStudentId === me.student.id)).toHaveLength(1);
  });

  it("keeps a payment that comes in afterwards as money received, flagged for a refund, and never released", async () => {
    const me = await kit.newStudent();
    const id = await kit.requested(me.token);
    const reference = await kit.startPaying(me.token, id);
    expect((await cancel(me.token, id)).status).toBe(200);
    const [audit] = await kit.api.db
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, "transcript.cancel"), eq(auditLog.entityId, String(id))));
    expect(audit!.after).toEqual({ status: "cancelled", pending_payments: [reference] });

    await kit.payAtSandbox(reference);
    expect((await kit.verify(reference, me.token)).status).toBe(200);
    expect(await kit.paymentRow(reference)).toMatchObject({ status: "success" });
    const jobs = await mailJobsTo(kit.api.db, me.student.email);
    expect(jobs.map((job) => job.data.subject)).toContain("Payment receipt: Transcript fee");
    const payment = await kit.paymentRow(reference);
    const [flag] = await kit.api.db
      .select()
      .from(feeStatusFlags)
      .where(eq(feeStatusFlags.paymentId, payment.id));
    expect(flag!.reason).toMatch(
      new RegExp(`transcript request ${id}, which the student cancelled .* refund the payment`),
    );

    expect((await kit.mine(me.token)).requests).toMatchObject([
      { id, state: "cancelled", paid_after_cancelling: reference, pending_payment: null },
    ]);
    const waiting = await json(await kit.api.request("/staff/transcripts", { token: kit.exams }));
    expect(waiting.data.awaiting_release.map((row: { id: number }) => row.id)).not.toContain(id);
    const release = await kit.release(id);
    expect(release.status).toBe(409);
    expect((await json(release)).message).toMatch(/cancelled this request/);
    expect(await kit.releasedReference(id)).toBeNull();
    // Paid, yet still cancelled: the student cannot cancel again nor pay again.
    expect((await cancel(me.token, id)).status).toBe(409);
    expect((await kit.pay(me.token, id)).status).toBe(409);
  });
});

describe("releasing a transcript", () => {
  let me: Awaited<ReturnType<TranscriptsKit["newStudent"]>>;
  let id: number;
  let reference: string;
  let token: string;
  beforeAll(async () => {
    me = await kit.newStudent("NCE/TRN/RELEASE");
    await kit.publishSemester([{ studentId: me.student.id, ca: 32, exam: 48 }]);
    ({ id } = await kit.paidRequest(me.token, {
      recipient: "institution",
      institution_name: "University of Lagos",
      institution_email: "Admissions@Unilag.example",
    }));
  });

  it("is listed for the exams office once paid, then released with a reference and a mail to the recipient", async () => {
    const waiting = await json(await kit.api.request("/staff/transcripts", { token: kit.exams }));
    expect(waiting.data.awaiting_release).toContainEqual(
      expect.objectContaining({
        id,
        matric_no: "NCE/TRN/RELEASE",
        institution_name: "University of Lagos",
        recipient_email: "admissions@unilag.example",
      }),
    );
    const response = await kit.release(id);
    expect(response.status).toBe(200);
    reference = (await json(response)).data.reference;
    expect(reference).toMatch(/^TR-\d{4}-[0-9A-Z]{10}$/);
    const [mail] = await mailJobsTo(kit.api.db, "admissions@unilag.example");
    expect(mail!.data.text).toContain("Dear University of Lagos,");
    expect(mail!.data.text).toContain(reference);
    const link = /\/transcripts\/(\S+)/.exec(mail!.data.text)?.[1];
    expect(link).toBe(transcriptToken(reference, kit.api.deps.slipSigningKey));
    token = link!;
    const mine = (await kit.mine(me.token)).requests[0]!;
    expect(mine).toMatchObject({ id, state: "released", reference });
    expect(tokenIn(mine.url)).toBe(token);
    const [audit] = await kit.api.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, "transcript_request"),
          eq(auditLog.action, "transcript.release"),
          eq(auditLog.entityId, String(id)),
        ),
      );
    expect(audit).toMatchObject({ staffId: kit.examsMember.id });
  });

  it("is refused a second time", async () => {
    const again = await kit.release(id);
    expect(again.status).toBe(409);
    expect((await json(again)).message).toContain(reference);
    expect(await mailJobsTo(kit.api.db, "admissions@unilag.example")).toHaveLength(1);
  });

  it("shows the transcript by its signed link, as it was on release, after the record changes", async () => {
    await kit.api.db
      .update(students)
      .set({ surname: "Renamed", othername: "Someone Else" })
      .where(eq(students.id, me.student.id));
    const response = await kit.api.request(`/transcripts/verify/${token}`);
    expect(response.status).toBe(200);
    const { data } = await json(response);
    expect(data.reference).toBe(reference);
    expect(data.transcript).toMatchObject({
      surname: me.student.surname,
      othername: me.student.othername,
      matric_no: "NCE/TRN/RELEASE",
      programme: kit.api.school.programmes[0]!.name,
      // 32 + 48 = 80: an A (5 points) over 3 units.
      semesters: [
        {
          session: "2024/2025",
          semester: 1,
          units: 3,
          gpa: 5,
          cgpa: 5,
          courses: [expect.objectContaining({ total: 80, grade: "A", point: 5 })],
        },
      ],
      total_units: 3,
      cgpa: 5,
      certificate_class: "Distinction",
    });
  });

  it("is genuine by its reference and the matric number, in any letter case, and names it as released", async () => {
    const response = await kit.api.request("/transcripts/check", {
      method: "POST",
      json: { reference: reference.toLowerCase(), matric_no: "nce/trn/release" },
    });
    expect(response.status).toBe(200);
    expect((await json(response)).data).toMatchObject({
      reference,
      name: `${me.student.surname.toUpperCase()}, ${me.student.othername}`,
      certificate_class: "Distinction",
      cgpa: 5,
    });
  });

  it("is not genuine with another matric number, an unknown reference, or an altered or foreign token", async () => {
    for (const body of [
      { reference, matric_no: "NCE/TRN/OTHER" },
      { reference: "TR-2025-0000000000", matric_no: "NCE/TRN/RELEASE" },
    ]) {
      const response = await kit.api.request("/transcripts/check", { method: "POST", json: body });
      expect(response.status).toBe(404);
      expect((await json(response)).message).toBe(NOT_GENUINE);
    }
    const key = kit.api.deps.slipSigningKey;
    const altered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    for (const bad of [
      altered,
      transcriptToken(reference, "another key"),
      transcriptToken("TR-2025-0000000000", key),
      slipToken("school-fee", reference, key),
      "not-a-token",
      "%E0%A4%A",
    ]) {
      const response = await kit.api.request(`/transcripts/verify/${bad}`);
      expect(response.status, bad).toBe(404);
    }
    const empty = await kit.api.request("/transcripts/check", { method: "POST", json: {} });
    expect(empty.status).toBe(400);
  });

  it("stops one address trying references in bulk, and only that address", async () => {
    const clientAddress = "198.51.100.23";
    const guess = (n: number, from = clientAddress) =>
      kit.api.request("/transcripts/check", {
        method: "POST",
        clientAddress: from,
        json: { reference: `TR-2025-${String(n).padStart(10, "0")}`, matric_no: "NCE/TRN/RELEASE" },
      });
    for (let n = 0; n < 30; n++) expect((await guess(n)).status).toBe(404);
    const blocked = await guess(30);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await json(blocked)).message).toMatch(/^Too many transcript checks\./);
    // Another institution is not held up by the first one's guessing.
    expect((await guess(31, "198.51.100.99")).status).toBe(404);
  });
});
