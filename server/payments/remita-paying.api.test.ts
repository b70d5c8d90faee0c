import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeSplitItems } from "../db/schema.ts";
import { HARNESS_REMITA, payRrrAtSandbox } from "../testing/api-harness.test-kit.ts";
import { reconcilePendingPayments } from "./reconciler.ts";
import { choice, createPaymentsKit, FULL_100_2024, type PaymentsKit } from "./payments.test-kit.ts";

// A student pays school fees through Remita (decision 189), against the harness's in-process
// Remita sandbox: the RRR start, Remita's return, and the reconciler that credits an RRR paid at
// a bank days later with nobody pressing anything.

let kit: PaymentsKit;
type Who = Awaited<ReturnType<PaymentsKit["newStudent"]>>;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

beforeAll(async () => {
  kit = await createPaymentsKit({ offeredGateways: ["paystack", "remita"] });
});
afterAll(() => kit.api.close());

const startRemita = (who: Who, option = "full") =>
  kit.post("/student/school-fee/offline", who.token, {
    student_id: who.student.id,
    ...choice(option),
    channel: "remita",
  });

const started = (who: Who, option = "full") => kit.startRrr(who, option);

const returnFromRemita = (who: Who, reference: string, rrr?: string) =>
  kit.api.request(`/remita/verify/${reference}${rrr === undefined ? "" : `?rrr=${rrr}`}`, {
    token: who.token,
  });

const sandboxInvoice = async (rrr: string) =>
  (
    await (
      await kit.api.remitaSandbox.request(`/__sandbox/rrr/${rrr}`, {
        headers: { authorization: `Bearer ${HARNESS_REMITA.apiKey}` },
      })
    ).json()
  ).invoice;

const reconcile = () => reconcilePendingPayments(kit.api.deps);

// Each reconciler test starts with nothing pending left by another: all given up on.
async function settleEverything() {
  kit.api.clock.advance(91 * DAY);
  while ((await reconcile()) > 0 || (await pendingCount()) > 0) {
    kit.api.clock.advance(7 * 60 * MINUTE);
  }
}
async function pendingCount() {
  const rows = await kit.api.db.query.payments.findMany({
    where: (payments, { eq }) => eq(payments.status, "pending"),
  });
  return rows.length;
}

describe("POST /student/school-fee/offline with channel remita", () => {
  it("makes an RRR at the scheduled amount for the student, and keeps it with the payment", async () => {
    const me = await kit.newStudent({
      surname: "Musa",
      othername: "Hauwa",
      phone: "08031890001",
      matricNo: "CCE/2024/BIO/0181",
    });
    const response = await startRemita(me);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      status: "pending",
      message: "Charge attempted",
      reference: expect.stringMatching(/^CCE-\d{8}-[0-9A-Z]{12}$/),
      instructions: {
        channel: "remita",
        rrr: expect.stringMatching(/^\d{12}$/),
        pay_online: {
          action: `${HARNESS_REMITA.baseUrl}/remita/ecomm/finalize.reg`,
          fields: {
            merchantId: HARNESS_REMITA.merchantId,
            hash: expect.stringMatching(/^[0-9a-f]{128}$/),
            rrr: body.instructions.rrr,
            responseurl: "http://localhost:4321/remita/verify",
          },
        },
      },
    });
    expect(await kit.paymentRow(body.reference)).toMatchObject({
      status: "pending",
      gateway: "remita",
      channel: "remita",
      gatewayReference: body.instructions.rrr,
      amountKobo: FULL_100_2024 * 100,
      payInstructions: body.instructions,
    });
    // Remita's invoice names the payer, the order and the amount, in naira.
    expect(await sandboxInvoice(body.instructions.rrr)).toMatchObject({
      orderId: body.reference,
      amountKobo: FULL_100_2024 * 100,
      payerName: "Musa Hauwa",
    });

    const shown = await (
      await kit.api.request(`/student/school-fee/${body.reference}`, { token: me.token })
    ).json();
    expect(shown.data).toMatchObject({
      payment: { paystack_ref: body.reference, gateway: "remita", rrr: body.instructions.rrr },
      instructions: body.instructions,
    });
  });

  it("answers 'Payment already made' for a fee already paid, and makes no RRR", async () => {
    const me = await kit.newStudent();
    const { rrr, reference } = await started(me, "full");
    await payRrrAtSandbox(kit.api, rrr, { channel: "CARDPAYMENT", notify: false });
    expect((await returnFromRemita(me, reference, rrr)).status).toBe(200);
    const again = await (await startRemita(me, "full")).json();
    expect(again).toEqual({ status: "success", message: "Payment already made" });
  });
});

describe("GET /remita/verify/:reference (Remita's return)", () => {
  it("says an unpaid RRR stays payable, then credits it once Remita has the money", async () => {
    const me = await kit.newStudent();
    const { reference, rrr } = await started(me, "part");
    const early = await returnFromRemita(me, reference, rrr);
    expect(early.status).toBe(409);
    expect((await early.json()).message).toBe(
      `Remita has not received payment for RRR ${rrr.match(/\d{4}/g)!.join("-")} yet. It stays payable: pay it online on Remita or at any bank branch. It is credited as soon as Remita confirms it, even if you close this page.`,
    );
    expect((await kit.paymentRow(reference)).status).toBe("pending");

    await payRrrAtSandbox(kit.api, rrr, { channel: "CARDPAYMENT", notify: false });
    const paid = await returnFromRemita(me, reference, rrr);
    expect(paid.status).toBe(200);
    expect((await paid.json()).data).toMatchObject({
      paystack_ref: reference,
      payment_status: "success",
      gateway: "remita",
      rrr,
    });
    expect(kit.creditLines(reference)).toHaveLength(1);
    // A second return (a reload) answers from our records.
    expect((await returnFromRemita(me, reference, rrr)).status).toBe(200);
    expect(kit.creditLines(reference)).toHaveLength(1);
  });

  it("leaves the RRR pending and payable after a declined card or an abandoned page", async () => {
    const me = await kit.newStudent();
    const { reference, rrr } = await started(me, "part");
    const { pay_online: payOnline } = (await kit.paymentRow(reference)).payInstructions as {
      pay_online: { fields: Record<string, string> };
    };
    for (const outcome of ["decline", "abandon"]) {
      // The student's browser posts the RRR page's form to Remita, and chooses there.
      const page = await kit.api.remitaSandbox.request("/remita/ecomm/finalize.reg", {
        method: "POST",
        body: new URLSearchParams(payOnline.fields),
      });
      expect(page.status).toBe(200);
      const back = await kit.api.remitaSandbox.request(`/remita/ecomm/finalize/${rrr}/${outcome}`, {
        method: "POST",
      });
      expect(back.status).toBe(303);
      expect(back.headers.get("location")).toBe(
        `http://localhost:4321/remita/verify?RRR=${rrr}&orderID=${reference}`,
      );
      const checked = await returnFromRemita(me, reference, rrr);
      expect(checked.status).toBe(409);
      expect((await checked.json()).message).toMatch(/It stays payable/);
      expect((await kit.paymentRow(reference)).status).toBe("pending");
    }
    await payRrrAtSandbox(kit.api, rrr, { notify: false });
    expect((await returnFromRemita(me, reference, rrr)).status).toBe(200);
  });

  it.each([
    ["another student's payment", "other", "right"],
    ["an RRR that is not this payment's", "mine", "wrong"],
    ["an unknown reference", "unknown", "right"],
  ])("answers %s as unknown, and asks Remita nothing", async (_case, whose, which) => {
    const me = await kit.newStudent();
    const other = await kit.newStudent();
    const mine = await started(me);
    const theirs = await started(other);
    const payment = whose === "other" ? theirs : mine;
    await payRrrAtSandbox(kit.api, payment.rrr, { notify: false });
    const reference = whose === "unknown" ? "CCE-20250115-NOSUCHPAYMNT" : payment.reference;
    const rrr = which === "wrong" ? theirs.rrr : payment.rrr;
    const response = await returnFromRemita(me, reference, rrr);
    expect(response.status).toBe(404);
    expect((await response.json()).message).toMatch(/^We have no payment with that reference/);
    expect((await kit.paymentRow(payment.reference)).status).toBe("pending");
  });

  it("refuses an RRR that is not digits", async () => {
    const me = await kit.newStudent();
    const { reference } = await started(me);
    const response = await returnFromRemita(me, reference, "12ab");
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("That is not an RRR.");
  });
});

describe("the reconciler and an RRR", () => {
  it("credits an RRR paid at a bank three days later, with nobody pressing anything", async () => {
    await settleEverything();
    const me = await kit.newStudent();
    const { reference, rrr } = await started(me, "full");
    kit.api.clock.advance(6 * MINUTE);
    expect(await reconcile()).toBe(0);

    // Paid at a bank on the third day; Remita's notification is lost on the way.
    const bank = await payRrrAtSandbox(kit.api, rrr, {
      channel: "BRANCH",
      notify: false,
      delayMs: 3 * DAY,
    });
    expect(bank.state).toBe("scheduled");
    for (let hour = 1; hour < 3 * 24; hour++) {
      kit.api.clock.advance(60 * MINUTE);
      await reconcile();
    }
    expect((await kit.paymentRow(reference)).status).toBe("pending");
    // It arrives at the end of the third day, and the next hourly check finds it.
    kit.api.clock.advance(2 * 60 * MINUTE);
    expect(await reconcile()).toBe(1);
    expect(await kit.paymentRow(reference)).toMatchObject({
      status: "success",
      gateway: "remita",
      gatewayReference: rrr,
    });
    expect(kit.creditLines(reference)).toHaveLength(1);
    // Days later the student signs in again and finds it paid.
    const token = await kit.api.signIn(me.student.phone);
    const info = await (
      await kit.api.request(`/student/payment-info/${me.student.id}`, { token })
    ).json();
    expect(info.data.school_fees_payment.payment_complete).toBe("full");
    const slip = await (
      await kit.api.request(`/student/invoice/school-fee/${reference}`, { token })
    ).json();
    expect(slip.data.payment).toMatchObject({ gateway: "remita", rrr });
  });

  it("keeps an unpaid RRR open past Paystack's two days, checking it hourly, and gives up after 90", async () => {
    await settleEverything();
    const me = await kit.newStudent();
    const { reference } = await started(me, "part");
    let calls = 0;
    const remita = kit.api.deps.gateways.remita;
    const counting = {
      ...kit.api.deps,
      gateways: {
        ...kit.api.deps.gateways,
        remita: {
          ...remita,
          verify: (p: Parameters<typeof remita.verify>[0]) => (calls++, remita.verify(p)),
        },
      },
    };
    kit.api.clock.advance(3 * DAY);
    await reconcilePendingPayments(counting);
    expect(calls).toBe(1);
    expect((await kit.paymentRow(reference)).status).toBe("pending");
    kit.api.clock.advance(30 * MINUTE);
    await reconcilePendingPayments(counting);
    expect(calls).toBe(1);
    kit.api.clock.advance(31 * MINUTE);
    await reconcilePendingPayments(counting);
    expect(calls).toBe(2);

    kit.api.clock.advance(60 * DAY);
    await reconcile();
    expect((await kit.paymentRow(reference)).status).toBe("pending");
    kit.api.clock.advance(28 * DAY);
    await reconcile();
    expect((await kit.paymentRow(reference)).status).toBe("abandoned");
  });
});

describe("an RRR for a fee the bursar split between accounts (decision 190)", () => {
  it("carries the split to Remita as line items and keeps it for the printed invoice", async () => {
    const fee = await kit.api.db.query.feeSchedule.findFirst({
      where: (fees, { and, eq, isNull }) =>
        and(
          eq(fees.paymentOption, "full"),
          eq(fees.level, 100),
          eq(fees.session, "2024/2025"),
          isNull(fees.programmeId),
          isNull(fees.studyMode),
          isNull(fees.replacedAt),
        ),
    });
    const vendorShare = 150_000;
    await kit.api.db.insert(feeSplitItems).values([
      {
        feeId: fee!.id,
        position: 1,
        beneficiaryName: "Federal College of Education TSA",
        beneficiaryAccount: "0360883515",
        bankCode: "000",
        amountKobo: fee!.amountKobo - vendorShare,
        bearsCharge: true,
      },
      {
        feeId: fee!.id,
        position: 2,
        beneficiaryName: "Campus ICT Services Ltd",
        beneficiaryAccount: "0123456789",
        bankCode: "057",
        amountKobo: vendorShare,
        bearsCharge: false,
      },
    ]);
    try {
      const me = await kit.newStudent();
      const body = await (await startRemita(me)).json();
      expect(body.status).toBe("pending");
      expect(body.instructions.line_items).toEqual([
        {
          beneficiary_name: "Federal College of Education TSA",
          amount_kobo: fee!.amountKobo - vendorShare,
        },
        { beneficiary_name: "Campus ICT Services Ltd", amount_kobo: vendorShare },
      ]);
      const invoice = await sandboxInvoice(body.instructions.rrr);
      expect(invoice.lineItems).toEqual([
        expect.objectContaining({
          beneficiaryAccount: "0360883515",
          amountKobo: fee!.amountKobo - vendorShare,
        }),
        expect.objectContaining({ beneficiaryAccount: "0123456789", amountKobo: vendorShare }),
      ]);
    } finally {
      await kit.api.db.delete(feeSplitItems).where(eq(feeSplitItems.feeId, fee!.id));
    }
  });
});
