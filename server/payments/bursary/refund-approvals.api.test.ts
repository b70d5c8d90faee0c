import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, feeStatusFlags, refunds } from "../../db/schema.ts";
import { createStaff, staffSignIn } from "../../staff/staff.test-kit.ts";
import { createBursaryKit, type BursaryKit } from "./bursary.test-kit.ts";

// Refunds of credited payments, and the second approval above REFUND_SECOND_APPROVAL_KOBO
// (the harness's default, ₦50,000, against the ₦120,000 fee): decision 151.

let kit: BursaryKit;
let second: { id: number; token: string };
let admin: { id: number; token: string };
let registry: string;
let paystackRefunds = 0;

beforeAll(async () => {
  kit = await createBursaryKit();
  const signedIn = async (roles: ("bursar" | "admin" | "registry")[]) => {
    const member = await createStaff(kit.api, {
      roles,
      totp: roles.includes("registry") ? false : true,
    });
    return { id: member.id, token: await staffSignIn(kit.api, member) };
  };
  second = await signedIn(["bursar"]);
  admin = await signedIn(["admin"]);
  registry = (await signedIn(["registry"])).token;
  const client = kit.api.deps.gateways.paystack;
  const original = client.refund;
  client.refund = async (input) => {
    paystackRefunds += 1;
    return original(input);
  };
});
afterAll(() => kit.api.close());

type Who = Awaited<ReturnType<BursaryKit["newStudent"]>>;

const ask = (reference: string, extra: Record<string, unknown> = {}) =>
  kit.asBursar("/staff/refunds", {
    method: "POST",
    json: { reference, reason: "Withdrew from the college", ...extra },
  });
const as = (token: string, path: string, json?: unknown) =>
  kit.api.request(path, { method: json === undefined ? "GET" : "POST", token, json });
const refundsOf = async (reference: string) =>
  kit.api.db
    .select()
    .from(refunds)
    .where(eq(refunds.paymentId, (await kit.paymentRow(reference)).id))
    .orderBy(refunds.id);

/** The student's own view: the fee status, the notices beside it, and each payment's note. */
async function studentView(who: Who) {
  const info = (
    await (
      await kit.api.request(`/student/payment-info/${who.student.id}`, { token: who.token })
    ).json()
  ).data;
  return {
    complete: info.school_fees_payment.payment_complete,
    notices: info.school_fees_payment.notices as string[],
    notes: Object.fromEntries(
      info.school_fee_payment.map((row: { paystack_ref: string; note: string | null }) => [
        row.paystack_ref,
        row.note,
      ]),
    ),
  };
}

const nameOf = (who: Who) => `${who.student.surname} ${who.student.othername}`;

/** Paystack processes the refund it holds for `reference` and says so by webhook. */
async function paystackSettles(reference: string, outcome: "process" | "fail") {
  const [row] = (await refundsOf(reference)).filter((refund) => refund.status === "pending");
  await kit.sandboxHook(`/__sandbox/refunds/${row!.paystackRefundId}/${outcome}`);
  expect(
    (
      await kit.deliverWebhook(
        kit.webhookFor(reference, outcome === "process" ? "refund.processed" : "refund.failed"),
      )
    ).status,
  ).toBe(200);
}

describe("refunding a credited payment", () => {
  it("a part below the second-approval line goes to Paystack at once and leaves the fee paid, with the refund in words", async () => {
    const { who, reference } = await kit.paidPayment();
    const check = await kit.asBursar("/staff/refunds/check", {
      method: "POST",
      json: { reference, reason: "Hostel fee charged twice", amount_kobo: 2_000_000 },
    });
    expect(check.status).toBe(200);
    expect((await check.json()).data).toEqual({
      reference,
      student_name: nameOf(who),
      matric_no: null,
      amount_kobo: 2_000_000,
      currency: "NGN",
      paid_kobo: 12_000_000,
      reason: "Hostel fee charged twice",
      credited: true,
      whole: false,
      needs_second_approval: false,
      gateway: "Paystack",
      outside: false,
      payee: null,
    });
    expect(await refundsOf(reference)).toEqual([]); // the check changes nothing

    const before = paystackRefunds;
    const asked = await ask(reference, {
      amount_kobo: 2_000_000,
      reason: "Hostel fee charged twice",
    });
    expect(asked.status).toBe(201);
    expect((await asked.json()).message).toBe(
      `Refund of ₦20,000.00 to ${nameOf(who)} for payment ${reference} asked of Paystack. It shows as refunded when Paystack confirms it. The payment still counts towards the student's fees.`,
    );
    expect(paystackRefunds).toBe(before + 1);
    expect((await kit.paymentRow(reference)).status).toBe("success");
    expect(await studentView(who)).toMatchObject({
      complete: "full",
      notes: {
        [reference]:
          "A refund of ₦20,000.00 of this payment is on its way to you; the payment still counts towards your school fees.",
      },
    });

    await paystackSettles(reference, "process");
    expect((await kit.paymentRow(reference)).status).toBe("success");
    const view = await studentView(who);
    expect(view.complete).toBe("full");
    expect(view.notices).toEqual([
      `Payment ${reference}: ₦20,000.00 of this payment was refunded to you; the payment still counts towards your school fees.`,
    ]);

    // A payment is refunded once, whatever part the first refund took.
    const again = await ask(reference, { amount_kobo: 1_000_000 });
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toContain("refunded once");
  });

  it("all of it waits for a second approver; the one who asked cannot approve; another's approval asks Paystack and the fee is unpaid again", async () => {
    const { who, reference } = await kit.paidPayment();
    const before = paystackRefunds;
    const asked = await ask(reference);
    expect(asked.status).toBe(201);
    expect((await asked.json()).message).toBe(
      `Refund waiting for a second approver: ₦120,000.00 to ${nameOf(who)} for payment ${reference}. Another bursary officer or an administrator approves or declines it under Refunds; Paystack is asked only then.`,
    );
    expect(paystackRefunds).toBe(before);
    const [waiting] = await refundsOf(reference);
    expect(waiting).toMatchObject({
      status: "awaiting_approval",
      paystackRefundId: null,
      requestedBy: kit.bursar.id,
      paymentStatusBefore: "success",
    });
    expect((await kit.paymentRow(reference)).status).toBe("success");
    expect((await studentView(who)).complete).toBe("full");
    // Only one refund per payment, waiting or not.
    expect((await ask(reference, { amount_kobo: 1_000_000 })).status).toBe(409);

    const listed = (await (await as(admin.token, "/staff/refunds/awaiting")).json()).data;
    expect(listed).toContainEqual(
      expect.objectContaining({
        id: waiting!.id,
        reference,
        student_name: nameOf(who),
        amount_kobo: 12_000_000,
        whole: true,
        credited: true,
        requested_by_id: kit.bursar.id,
      }),
    );
    expect(
      (await (await as(second.token, `/staff/refunds/${waiting!.id}`)).json()).data,
    ).toMatchObject({
      reference,
      reason: "Withdrew from the college",
      status: "awaiting_approval",
    });

    const self = await kit.asBursar(`/staff/refunds/${waiting!.id}/approve`, {
      method: "POST",
      json: {},
    });
    expect(self.status).toBe(403);
    expect((await self.json()).error.message).toBe(
      "You asked for this refund, so someone else must approve it: another bursary officer or an administrator.",
    );
    expect(await refundsOf(reference)).toEqual([
      expect.objectContaining({ status: "awaiting_approval", approvedBy: null }),
    ]);
    expect(paystackRefunds).toBe(before);

    const approved = await as(second.token, `/staff/refunds/${waiting!.id}/approve`, {});
    expect(approved.status).toBe(200);
    expect((await approved.json()).message).toBe(
      `Refund approved: Refund of ₦120,000.00 to ${nameOf(who)} for payment ${reference} asked of Paystack. It shows as refunded when Paystack confirms it. The payment no longer counts towards the student's fees.`,
    );
    expect(paystackRefunds).toBe(before + 1);
    expect(await refundsOf(reference)).toEqual([
      expect.objectContaining({ status: "pending", approvedBy: second.id }),
    ]);
    expect((await kit.paymentRow(reference)).status).toBe("refunding");
    expect((await studentView(who)).complete).toBeNull();
    expect((await as(admin.token, `/staff/refunds/${waiting!.id}/approve`, {})).status).toBe(409); // approved once

    await paystackSettles(reference, "process");
    expect((await kit.paymentRow(reference)).status).toBe("refunded");
    const view = await studentView(who);
    expect(view.complete).toBeNull();
    expect(view.notices).toEqual([
      `Payment ${reference}: Refunded to you in full (₦120,000.00): this payment no longer counts towards your school fees.`,
    ]);

    const audit = await kit.api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, reference))
      .orderBy(auditLog.id);
    expect(audit.map((row) => [row.action, row.staffId])).toEqual([
      ["payment.refund_request", kit.bursar.id],
      ["payment.refund_approve", second.id],
    ]);
    const detail = (await (await kit.asBursar(`/staff/payments/${reference}`)).json()).data;
    expect(detail.refunds).toEqual([
      expect.objectContaining({
        status: "processed",
        requested_by: kit.bursar.name,
        second_person: expect.any(String),
      }),
    ]);
    expect(detail.events.map((event: { kind: string }) => event.kind)).toEqual(
      expect.arrayContaining(["refund-awaiting-approval", "refund-requested", "refund-processed"]),
    );
  });

  it("two approvers at once: one approval asks Paystack, the other is told it is no longer waiting", async () => {
    const { reference } = await kit.paidPayment();
    await ask(reference);
    const [waiting] = await refundsOf(reference);
    const before = paystackRefunds;
    const answers = await Promise.all([
      as(second.token, `/staff/refunds/${waiting!.id}/approve`, {}),
      as(admin.token, `/staff/refunds/${waiting!.id}/approve`, {}),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(paystackRefunds).toBe(before + 1);
    expect(await refundsOf(reference)).toEqual([expect.objectContaining({ status: "pending" })]);
  });

  it("a waiting refund is declined with a reason: nothing is refunded, the payment may be refunded later", async () => {
    const { reference } = await kit.paidPayment();
    await ask(reference);
    const [waiting] = await refundsOf(reference);
    for (const json of [{}, { reason: "no" }, { reason: "x".repeat(501) }]) {
      expect((await as(admin.token, `/staff/refunds/${waiting!.id}/decline`, json)).status).toBe(
        400,
      );
    }
    const declined = await as(admin.token, `/staff/refunds/${waiting!.id}/decline`, {
      reason: "The student is still enrolled",
    });
    expect(declined.status).toBe(200);
    expect((await declined.json()).message).toMatch(
      /^Refund declined: ₦120,000\.00 to .+ for payment .+ will not be paid\. The payment is unchanged\.$/,
    );
    expect(await refundsOf(reference)).toEqual([
      expect.objectContaining({
        status: "declined",
        declinedBy: admin.id,
        declineReason: "The student is still enrolled",
      }),
    ]);
    expect((await kit.paymentRow(reference)).status).toBe("success");
    const [audit] = await kit.api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, reference), eq(auditLog.action, "payment.refund_decline")));
    expect(audit).toMatchObject({
      staffId: admin.id,
      after: { refund: "declined", reason: "The student is still enrolled" },
    });

    const approveDeclined = await as(second.token, `/staff/refunds/${waiting!.id}/approve`, {});
    expect(approveDeclined.status).toBe(409);
    expect((await approveDeclined.json()).error.message).toBe(
      "This refund is no longer waiting for an approver: it was declined.",
    );
    expect((await ask(reference, { amount_kobo: 3_000_000 })).status).toBe(201);
  });

  it("an approval is refused when the payment changed meanwhile (refunded at Paystack's dashboard), and changes nothing", async () => {
    const { reference } = await kit.paidPayment();
    await ask(reference);
    const [waiting] = await refundsOf(reference);
    const headers = {
      authorization: `Bearer ${kit.api.paystackSecretKey}`,
      "content-type": "application/json",
    };
    const outside = await (
      await kit.api.sandbox.request("/refund", {
        method: "POST",
        headers,
        body: JSON.stringify({ transaction: reference }),
      })
    ).json();
    await kit.sandboxHook(`/__sandbox/refunds/${outside.data.id}/process`);
    await kit.deliverWebhook(kit.webhookFor(reference, "refund.processed"));
    expect((await kit.paymentRow(reference)).status).toBe("refunded");

    const before = paystackRefunds;
    const refused = await as(second.token, `/staff/refunds/${waiting!.id}/approve`, {});
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.message).toContain(
      "The payment changed since this refund was asked (it was success, now refunded)",
    );
    expect(paystackRefunds).toBe(before);
    expect(await refundsOf(reference)).toEqual([
      expect.objectContaining({ status: "awaiting_approval" }),
    ]);
  });

  it("a whole refund Paystack fails gives the credit back, or holds it as paid twice when the student paid the fee again meanwhile", async () => {
    const back = await kit.paidPayment();
    await ask(back.reference);
    await as(
      second.token,
      `/staff/refunds/${(await refundsOf(back.reference))[0]!.id}/approve`,
      {},
    );
    await paystackSettles(back.reference, "fail");
    expect((await kit.paymentRow(back.reference)).status).toBe("success");
    expect((await studentView(back.who)).complete).toBe("full");

    const again = await kit.paidPayment();
    await ask(again.reference);
    await as(
      second.token,
      `/staff/refunds/${(await refundsOf(again.reference))[0]!.id}/approve`,
      {},
    );
    const repaid = await kit.paidPayment({ who: again.who });
    expect((await kit.paymentRow(repaid.reference)).status).toBe("success");
    await paystackSettles(again.reference, "fail");
    expect((await kit.paymentRow(again.reference)).status).toBe("duplicate");
    const [flag] = await kit.api.db
      .select()
      .from(feeStatusFlags)
      .where(eq(feeStatusFlags.paymentId, (await kit.paymentRow(again.reference)).id));
    expect(flag?.reason).toContain("the student paid the same fee again meanwhile");
    expect((await studentView(again.who)).complete).toBe("full");
  });

  it("asking is the bursar's; approving and declining are the bursar's or the administrator's; other staff and bad ids are refused", async () => {
    const { reference } = await kit.paidPayment();
    expect(
      (await as(admin.token, "/staff/refunds", { reference, reason: "Withdrew from the college" }))
        .status,
    ).toBe(403);
    expect(
      (
        await as(admin.token, "/staff/refunds/check", {
          reference,
          reason: "Withdrew from the college",
        })
      ).status,
    ).toBe(403);
    await ask(reference);
    const [waiting] = await refundsOf(reference);
    expect((await as(registry, `/staff/refunds/${waiting!.id}/approve`, {})).status).toBe(403);
    expect(
      (await as(registry, `/staff/refunds/${waiting!.id}/decline`, { reason: "Not owed" })).status,
    ).toBe(403);
    expect((await as(registry, "/staff/refunds/awaiting")).status).toBe(403);
    // An id past the largest a row can have is as unknown as one below it (issue 30, item 23).
    for (const id of ["99999", "99999999999"])
      expect((await as(second.token, `/staff/refunds/${id}/approve`, {})).status).toBe(404);
    for (const id of ["abc", "0"])
      expect((await as(second.token, `/staff/refunds/${id}/approve`, {})).status).toBe(400);
    expect(await refundsOf(reference)).toEqual([
      expect.objectContaining({ status: "awaiting_approval" }),
    ]);
  });
});
