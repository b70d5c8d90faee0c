import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { readJson, readParams } from "../http/validate.ts";
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
    const { amountKobo } = await quoteFee(deps, c.var.student, choice);
    return c.json({
      status: "success",
      message: "Fee generated",
      data: { amount: amountKobo / 100 },
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

  app.get("/paystack/verify/:reference", signedIn, async (c) => {
    const { reference } = readParams(c, ReferenceParam);
    const studentId = c.var.student.id;
    const payment = await verifyOwnPayment(deps, studentId, reference, () =>
      limits.countGatewayCheck(studentId, deps.now()),
    );
    return c.json({
      status: "success",
      message: "Payment verified",
      data: toPaymentRecord(payment),
    });
  });

  app.route("/", offlinePaymentRoutes(deps, limits));
  app.route("/", gatewayWebhookRoutes(deps));
  app.route("/", slipRoutes(deps));
  return app;
}
