import { eq } from "drizzle-orm";
import { createApiHarness, type HarnessOverrides } from "../testing/api-harness.test-kit.ts";
import { payments } from "../db/schema.ts";
import { signPaystackPayload } from "../paystack/signature.ts";
import { seedFees } from "./seed.ts";

/** The 100-level full fee for 2024/2025 the seed schedules, in naira. */
export const FULL_100_2024 = 120_000;

export const choice = (option: string, level: number | string = 100, session = "2024/2025") => ({
  payment_option: option,
  payment_level: level,
  payment_session: session,
});

/**
 * The API harness with the fee schedule, plus the steps of a payment: quote, start, pay at the
 * sandbox (as if in the checkout), deliver the captured webhooks, verify.
 */
export async function createPaymentsKit(overrides: HarnessOverrides = {}) {
  const api = await createApiHarness(overrides);
  await seedFees(api.db);

  async function newStudent(fields: Parameters<typeof api.createStudent>[0] = {}) {
    const student = await api.createStudent(fields);
    const token = await api.signIn(student.phone);
    return { student, token };
  }

  const post = (path: string, token: string, json: unknown) =>
    api.request(path, { method: "POST", token, json });

  /** Starts a payment and answers its reference (fails the test on anything but pending). */
  async function start(
    who: { student: { id: number }; token: string },
    option = "full",
    level = 100,
    session = "2024/2025",
  ) {
    const response = await post("/student/school-fee", who.token, {
      student_id: who.student.id,
      ...choice(option, level, session),
    });
    const body = await response.json();
    if (body.status !== "pending") throw new Error(`could not start: ${JSON.stringify(body)}`);
    return body.reference as string;
  }

  /** Starts an RRR through Remita and answers its reference and RRR (fails the test on anything but pending). */
  async function startRrr(who: { student: { id: number }; token: string }, option = "full") {
    const response = await post("/student/school-fee/offline", who.token, {
      student_id: who.student.id,
      ...choice(option),
      channel: "remita",
    });
    const body = await response.json();
    if (body.status !== "pending") throw new Error(`could not start: ${JSON.stringify(body)}`);
    return { reference: body.reference as string, rrr: body.instructions.rrr as string };
  }

  /** Marks the transaction paid at the sandbox; its webhook is captured in api.webhooks. */
  async function payAtSandbox(reference: string) {
    const response = await api.sandbox.request(`/__sandbox/transactions/${reference}/pay`, {
      method: "POST",
      headers: { authorization: `Bearer ${api.paystackSecretKey}` },
    });
    if (response.status !== 200) throw new Error(`sandbox pay failed: ${response.status}`);
  }

  function deliverWebhook(
    body: string,
    signature: string | null = signPaystackPayload(body, api.paystackSecretKey),
  ) {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (signature !== null) headers["x-paystack-signature"] = signature;
    return api.request("/paystack/webhook", { method: "POST", headers, body });
  }

  const verify = (reference: string, token: string) =>
    api.request(`/paystack/verify/${reference}`, { token });

  async function paymentRow(reference: string) {
    const [row] = await api.db.select().from(payments).where(eq(payments.reference, reference));
    return row!;
  }

  const creditLines = (reference: string) =>
    api.logger.lines.filter(
      (line) => line.includes('"payment credited"') && line.includes(reference),
    );

  return {
    api,
    newStudent,
    post,
    start,
    startRrr,
    payAtSandbox,
    deliverWebhook,
    verify,
    paymentRow,
    creditLines,
  };
}
export type PaymentsKit = Awaited<ReturnType<typeof createPaymentsKit>>;
