import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { choice, createPaymentsKit, FULL_100_2024, type PaymentsKit } from "./payments.test-kit.ts";
import { createPaystackClient } from "../paystack/client.ts";
import { paymentEvents, payments } from "../db/schema.ts";

let kit: PaymentsKit;

beforeAll(async () => {
  kit = await createPaymentsKit();
});
afterAll(() => kit.api.close());

const start = (who: { student: { id: number }; token: string }, json: object) =>
  kit.post("/student/school-fee", who.token, { student_id: who.student.id, ...json });

async function atSandbox(reference: string) {
  const response = await kit.api.sandbox.request(`/transaction/verify/${reference}`, {
    headers: { authorization: `Bearer ${kit.api.paystackSecretKey}` },
  });
  return (await response.json()).data;
}

describe("POST /student/school-fee", () => {
  it("creates a pending payment at the scheduled amount and answers Paystack's checkout address", async () => {
    const me = await kit.newStudent({ email: "payer@example.com" });
    const response = await start(me, { ...choice("full"), amount: 100, amount_kobo: 100 });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      status: "pending",
      message: "Payment initialized",
      authorization_url: expect.stringMatching(/^http:\/\/paystack-sandbox\.test\/checkout\/\w+$/),
      reference: expect.stringMatching(/^CCE-20250115-[0-9A-Z]{12}$/),
    });

    const row = await kit.paymentRow(body.reference);
    expect(row).toMatchObject({
      studentId: me.student.id,
      paymentOption: "full",
      level: 100,
      session: "2024/2025",
      amountKobo: FULL_100_2024 * 100,
      currency: "NGN",
      status: "pending",
      authorizationUrl: body.authorization_url,
    });
    // Kept with the checkout's address, in the same statement: the payment's history begins here.
    const events = await kit.api.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.paymentId, row!.id));
    expect(events).toEqual([
      expect.objectContaining({
        kind: "initialised",
        at: kit.api.clock.now(),
        detail: {
          amount_kobo: FULL_100_2024 * 100,
          option: "full",
          level: 100,
          session: "2024/2025",
        },
      }),
    ]);

    const transaction = await atSandbox(body.reference);
    expect(transaction).toMatchObject({
      amount: FULL_100_2024 * 100,
      currency: "NGN",
      customer: { email: "payer@example.com" },
    });
    expect(transaction.metadata).toEqual({
      student_id: me.student.id,
      payment_option: "full",
      payment_level: 100,
      payment_session: "2024/2025",
    });

    // Leaving the checkout returns the browser to our verify page with the reference.
    const accessCode = body.authorization_url.split("/").pop();
    const back = await kit.api.sandbox.request(`/checkout/${accessCode}/abandon`, {
      method: "POST",
    });
    expect(back.headers.get("location")).toBe(
      `http://localhost:4321/paystack/verify?trxref=${body.reference}&reference=${body.reference}`,
    );
  });

  it("gives every attempt a new reference", async () => {
    const me = await kit.newStudent();
    const first = await kit.start(me, "part");
    const second = await kit.start(me, "part");
    expect(first).not.toBe(second);
  });

  it("answers 'Payment already made' with status success when the fee is paid, creating nothing", async () => {
    const me = await kit.newStudent();
    const reference = await kit.start(me, "part");
    await kit.payAtSandbox(reference);
    expect((await kit.verify(reference, me.token)).status).toBe(200);

    const response = await start(me, choice("part"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "success", message: "Payment already made" });
    const rows = await kit.api.db
      .select()
      .from(payments)
      .where(eq(payments.studentId, me.student.id));
    expect(rows).toHaveLength(1);
  });

  it("refuses to start a payment for another student", async () => {
    const me = await kit.newStudent();
    const other = await kit.newStudent();
    const response = await kit.post("/student/school-fee", me.token, {
      student_id: other.student.id,
      ...choice("full"),
    });
    expect(response.status).toBe(403);
    expect((await response.json()).message).toBe("You can only see and change your own record.");
  });

  it.each([
    [
      "a second installment before the first",
      choice("second_installment"),
      /^Pay the first installment/,
    ],
    [
      "a session without a fee",
      choice("full", 100, "2031/2032"),
      /^No fee is set for Full Payment/,
    ],
    ["an unknown option", choice("tuition"), /^Choose a payment category/],
    [
      "a missing level",
      { payment_option: "full", payment_session: "2024/2025" },
      /^Choose a level/,
    ],
  ])("refuses %s with a 400 and creates nothing", async (_case, json, message) => {
    const me = await kit.newStudent();
    const response = await start(me, json);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toMatch(message);
    expect(
      await kit.api.db.select().from(payments).where(eq(payments.studentId, me.student.id)),
    ).toEqual([]);
  });

  it("refuses a missing or malformed student id with a 400", async () => {
    const me = await kit.newStudent();
    const response = await kit.post("/student/school-fee", me.token, {
      student_id: "me",
      ...choice("full"),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("The student id must be a number.");
  });
});

describe("when Paystack cannot be reached", () => {
  it("answers a 502 the page can show, marks the attempt failed and never logs the key", async () => {
    const secretKey = "sk_test_do_not_log_me_123";
    const down = await createPaymentsKit({
      paystackSecretKey: secretKey,
      paystack: createPaystackClient({
        baseUrl: "http://paystack.invalid",
        secretKey,
        fetch: async () => {
          throw new TypeError(`fetch failed for Bearer ${secretKey}`);
        },
      }),
    });
    try {
      const me = await down.newStudent();
      const response = await down.post("/student/school-fee", me.token, {
        student_id: me.student.id,
        ...choice("full"),
      });
      expect(response.status).toBe(502);
      expect((await response.json()).message).toBe(
        "We could not start the payment with Paystack. Please try again in a few minutes.",
      );
      const [row] = await down.api.db
        .select()
        .from(payments)
        .where(eq(payments.studentId, me.student.id));
      expect(row?.status).toBe("failed");
      expect(
        down.api.logger.lines.some((line) => line.includes("paystack did not start a payment")),
      ).toBe(true);
      expect(down.api.logger.lines.join("\n")).not.toContain(secretKey);
    } finally {
      await down.api.close();
    }
  });
});
