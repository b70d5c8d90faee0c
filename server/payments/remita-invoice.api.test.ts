import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payments } from "../db/schema.ts";
import { signToken } from "../verification/signed-token.ts";
import { slipToken } from "./slip-token.ts";
import { createPaymentsKit, FULL_100_2024, type PaymentsKit } from "./payments.test-kit.ts";

// A Remita payment's printable invoice, its public check, and the RRR in the history and on the
// slip (decision 189). The payment rows are written here as a Remita start leaves them, so these
// tests hold whatever answers the gateway gives; remita-paying.api.test.ts starts them for real.

let kit: PaymentsKit;
type Who = Awaited<ReturnType<PaymentsKit["newStudent"]>>;
let me: Who;
let other: Who;
let sequence = 0;

beforeAll(async () => {
  kit = await createPaymentsKit({ offeredGateways: ["paystack", "remita"] });
  me = await kit.newStudent({
    surname: "Bello",
    othername: "Amina",
    matricNo: "CCE/2024/BIO/0189",
  });
  other = await kit.newStudent();
});
afterAll(() => kit.api.close());

/** A pending Remita payment as starting one leaves it: its RRR kept twice, as reference and instructions. */
async function remitaPayment(who: Who, fields: Partial<typeof payments.$inferInsert> = {}) {
  sequence += 1;
  const reference = `CCE-20250115-REMITA${String(sequence).padStart(6, "0")}`;
  const rrr = `2800${String(sequence).padStart(8, "0")}`;
  await kit.api.db.insert(payments).values({
    reference,
    studentId: who.student.id,
    paymentOption: "full",
    level: 100,
    session: "2024/2025",
    amountKobo: FULL_100_2024 * 100,
    gateway: "remita",
    channel: "remita",
    gatewayReference: rrr,
    payInstructions: {
      channel: "remita",
      rrr,
      pay_online: {
        action: "http://remita.test/remita/ecomm/finalize.reg",
        fields: { merchantId: "2547916", hash: "abc", rrr, responseurl: "http://x/remita/verify" },
      },
    },
    generatedAt: kit.api.clock.now(),
    ...fields,
  });
  return { reference, rrr };
}

const get = (path: string, token?: string) => kit.api.request(path, { token });
const checkPath = (url: string) => `/invoices/verify/${url.split("/verify/invoice/")[1]}`;

describe("GET /student/invoice/remita/:reference", () => {
  it("answers the student's own RRR, the payment and a signed link to the public check", async () => {
    const { reference, rrr } = await remitaPayment(me);
    const response = await get(`/student/invoice/remita/${reference}`, me.token);
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(data).toEqual({
      payment: expect.objectContaining({
        paystack_ref: reference,
        amount_paid: FULL_100_2024,
        payment_status: "pending",
        gateway: "remita",
        rrr,
      }),
      rrr,
      line_items: [],
      verify_url: `http://localhost:4321/verify/invoice/${signToken("payment-invoice", reference, kit.api.deps.slipSigningKey)}`,
    });
  });

  it("lists the split the RRR was made with, when there was one", async () => {
    const { reference, rrr } = await remitaPayment(me);
    const [row] = await kit.api.db.select().from(payments).where(eq(payments.reference, reference));
    const lineItems = [
      { beneficiary_name: "College TSA", amount_kobo: 11_500_000 },
      { beneficiary_name: "ICT vendor", amount_kobo: 500_000 },
    ];
    await kit.api.db
      .update(payments)
      .set({
        payInstructions: {
          ...row!.payInstructions!,
          channel: "remita",
          rrr,
          line_items: lineItems,
        } as never,
      })
      .where(eq(payments.reference, reference));
    const { data } = await (await get(`/student/invoice/remita/${reference}`, me.token)).json();
    expect(data.line_items).toEqual(lineItems);
  });

  it("is a 404 for another student's RRR, a Paystack payment and an unknown reference", async () => {
    const { reference } = await remitaPayment(other);
    const paystack = await kit.start(me, "part");
    for (const ref of [reference, paystack, "CCE-20250115-NOSUCHPAYMNT"]) {
      const response = await get(`/student/invoice/remita/${ref}`, me.token);
      expect(response.status).toBe(404);
      expect((await response.json()).message).toMatch(
        /^There is no Remita payment with that reference/,
      );
    }
    expect((await get(`/student/invoice/remita/${reference}`)).status).toBe(401);
  });
});

describe("GET /invoices/verify/:token (public)", () => {
  it("vouches for the invoice, and says whether it is paid, still payable, or closed", async () => {
    const { reference, rrr } = await remitaPayment(me);
    const invoice = (await (await get(`/student/invoice/remita/${reference}`, me.token)).json())
      .data;
    const awaiting = await (await get(checkPath(invoice.verify_url))).json();
    expect(awaiting.data).toEqual({
      rrr,
      reference,
      name: "Bello Amina",
      matric_no: "CCE/2024/BIO/0189",
      amount: FULL_100_2024,
      description: "Full Payment, 100 level, 2024/2025 school fees",
      issued: kit.api.clock.now().toISOString(),
      state: "awaiting payment",
      paid: null,
    });

    const paidAt = new Date("2025-01-18T11:00:00Z");
    await kit.api.db
      .update(payments)
      .set({ status: "success", paidAt })
      .where(eq(payments.reference, reference));
    const paid = await (await get(checkPath(invoice.verify_url))).json();
    expect(paid.data).toMatchObject({ state: "paid", paid: paidAt.toISOString() });

    await kit.api.db
      .update(payments)
      .set({ status: "abandoned" })
      .where(eq(payments.reference, reference));
    expect((await (await get(checkPath(invoice.verify_url))).json()).data.state).toBe("closed");
  });

  it("is not genuine for an altered token, a slip's token, or a Paystack payment's", async () => {
    const { reference } = await remitaPayment(me);
    const key = kit.api.deps.slipSigningKey;
    const paystack = await kit.start(me, "latefees", 100, "2023/2024");
    for (const token of [
      signToken("payment-invoice", reference, "another-key-0123456789abcdefghij"),
      slipToken("school-fee", reference, key),
      signToken("payment-invoice", paystack, key),
      "not-a-token",
    ]) {
      const response = await get(`/invoices/verify/${encodeURIComponent(token)}`);
      expect(response.status).toBe(404);
      expect((await response.json()).message).toMatch(/^This invoice could not be checked/);
    }
  });
});

describe("the history and the slip", () => {
  it("show a Remita payment's RRR and gateway, and Paystack's as before", async () => {
    const who = await kit.newStudent();
    const { reference, rrr } = await remitaPayment(who);
    const paystack = await kit.start(who, "latefees", 100, "2023/2024");
    const info = await (await get(`/student/payment-info/${who.student.id}`, who.token)).json();
    const rows = info.data.school_fee_payment as { paystack_ref: string }[];
    expect(rows.find((row) => row.paystack_ref === reference)).toMatchObject({
      gateway: "remita",
      rrr,
      payment_status: "pending",
    });
    expect(rows.find((row) => row.paystack_ref === paystack)).toMatchObject({
      gateway: "paystack",
      rrr: null,
    });

    await kit.api.db
      .update(payments)
      .set({ status: "success", paidAt: kit.api.clock.now(), channel: null })
      .where(eq(payments.reference, reference));
    const slip = await (await get(`/student/invoice/school-fee/${reference}`, who.token)).json();
    expect(slip.data.payment).toMatchObject({ gateway: "remita", rrr, payment_status: "success" });
  });
});
