import { Hono, type Context } from "hono";
import { z } from "zod";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { readJson, readParams, readQuery } from "../http/validate.ts";
import { assertOwnId, requireStudent } from "../auth/require-student.ts";
import { StudentIdParam } from "../students/routes.ts";
import { QuoteRequest, SchoolFeeRequest } from "../../common/payments/fee-request.ts";
import type { QuoteAnswer } from "../../common/payments/fee-request.ts";
import { loadPaymentInfo, toPaymentRecord } from "./payment-info.ts";
import { offlinePaymentRoutes } from "./offline-routes.ts";
import { createPaymentLimits } from "./payment-limits.ts";
import { ReferenceParam } from "./reference.ts";
import { quoteFee, startSchoolFeePayment } from "./school-fee.ts";
import { slipRoutes } from "./slip-routes.ts";
import { verifyOwnPayment } from "./verify.ts";
import { gatewayWebhookRoutes } from "./webhook.ts";

// An RRR is twelve digits; anything else names no payment of ours.
const RrrQuery = z.object({
  rrr: z
    .string()
    .regex(/^\d{1,20}$/, { error: "That is not an RRR." })
    .optional(),
});

/**
 * School fees: payment info, quote, Paystack initialise (card), charge (bank transfer, USSD) and
 * verify, webhook and slips.
 */
export function paymentRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  const signedIn = requireStudent(deps);
  const limits = createPaymentLimits(deps.db);

  app.get("/student/payment-info/:id", signedIn, async (c) => {
    const { id } = readParams(c, StudentIdParam);
    assertOwnId(c.var.student, id);
    return c.json({
      status: "success",
      data: await loadPaymentInfo(
        deps.db,
        id,
        c.var.student.placement.currentSession,
        c.var.student.level,
      ),
    });
  });

  app.post("/student/generate-payment", signedIn, async (c) => {
    const request = await readJson(c, QuoteRequest);
    const choice = {
      option: request.payment_option,
      level: request.payment_level,
      session: request.payment_session,
    };
    const { amountKobo, gateways } = await quoteFee(deps, c.var.student, choice);
    return c.json({
      status: "success",
      message: "Fee generated",
      data: { amount: amountKobo / 100, gateways },
    } satisfies QuoteAnswer);
  });

  app.post("/student/school-fee", signedIn, async (c) => {
    const request = await readJson(c, SchoolFeeRequest);
    assertOwnId(c.var.student, request.student_id);
    await limits.countPaymentStart(c.var.student.id, deps.now());
    const choice = {
      option: request.payment_option,
      level: request.payment_level,
      session: request.payment_session,
    };
    return c.json(await startSchoolFeePayment(deps, c.var.student, choice));
  });

  // Verify and Requery: asks the payment's own gateway, whichever it is. Remita's return page
  // also names the RRR Remita sent back, which must be this payment's.
  const verified = async (c: Context<ApiEnv>, rrr?: string) => {
    const { reference } = readParams(c, ReferenceParam);
    const studentId = c.var.student.id;
    const payment = await verifyOwnPayment(
      deps,
      studentId,
      reference,
      () => limits.countGatewayCheck(studentId, deps.now()),
      rrr,
    );
    return c.json({
      status: "success",
      message: "Payment verified",
      data: toPaymentRecord(payment),
    });
  };
  app.get("/paystack/verify/:reference", signedIn, (c) => verified(c));
  app.get("/remita/verify/:reference", signedIn, (c) => verified(c, readQuery(c, RrrQuery).rrr));

  app.route("/", offlinePaymentRoutes(deps, limits));
  app.route("/", gatewayWebhookRoutes(deps));
  app.route("/", slipRoutes(deps));
  return app;
}
