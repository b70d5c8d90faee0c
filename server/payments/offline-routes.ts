import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { readJson, readParams } from "../http/validate.ts";
import { assertOwnId, requireStudent } from "../auth/require-student.ts";
import { OfflinePaymentRequest } from "../../common/payments/offline-payment.ts";
import type { UssdBankCode } from "../../common/payments/ussd-banks.ts";
import {
  unhandledChannel,
  type OfflineChannel,
  type OfflineChannelChoice,
} from "../../common/payments/channels.ts";
import type { PaymentLimits } from "./payment-limits.ts";
import { ReferenceParam } from "./reference.ts";
import { ApiError } from "../http/errors.ts";
import { groupedRrr } from "../../common/payments/rrr.ts";
import { cancelOwnPayment } from "./close-payment.ts";
import {
  loadOwnPayment,
  startOfflinePayment,
  TRANSFER_ACCOUNT_LIFETIME_MS,
} from "./offline-payment.ts";

/**
 * Paying school fees without a card: `POST /student/school-fee/offline` (bank transfer, USSD or a
 * Remita RRR) and `GET /student/school-fee/{reference}`, which the Payment page reads to show the
 * account, code or RRR again, and whether it has been paid.
 */
export function offlinePaymentRoutes(deps: ApiDeps, limits: PaymentLimits) {
  const app = new Hono<ApiEnv>();
  const signedIn = requireStudent(deps);

  app.post("/student/school-fee/offline", signedIn, async (c) => {
    const request = await readJson(c, OfflinePaymentRequest);
    assertOwnId(c.var.student, request.student_id);
    // Same counter as card payments: each start creates a payment and a gateway charge.
    await limits.countPaymentStart(c.var.student.id, deps.now());
    const channel = channelChoice(request, deps.now());
    const choice = {
      option: request.payment_option,
      level: request.payment_level,
      session: request.payment_session,
    };
    return c.json(await startOfflinePayment(deps, c.var.student, choice, channel));
  });

  app.get("/student/school-fee/:reference", signedIn, async (c) => {
    const { reference } = readParams(c, ReferenceParam);
    return c.json({
      status: "success",
      data: await loadOwnPayment(deps, c.var.student.id, reference),
    });
  });

  // The student withdraws an unpaid RRR: asking Remita counts as a gateway check.
  app.post("/student/school-fee/:reference/cancel", signedIn, async (c) => {
    const { reference } = readParams(c, ReferenceParam);
    const studentId = c.var.student.id;
    const outcome = await cancelOwnPayment(deps, studentId, reference, () =>
      limits.countGatewayCheck(studentId, deps.now()),
    );
    const data = await loadOwnPayment(deps, studentId, reference);
    const rrr = outcome.payment.gatewayReference;
    const named = rrr ? `RRR ${groupedRrr(rrr)}` : "This RRR";
    switch (outcome.kind) {
      case "closed":
        return c.json({
          status: "success",
          message: `${named} is cancelled: it can no longer be paid online or at a bank.`,
          data,
        });
      case "paid":
        return c.json({
          status: "success",
          message:
            outcome.payment.status === "success"
              ? `${named} was already paid, so it was not cancelled: it is credited to your fees.`
              : `${named} was already paid, so it was not cancelled. It was not credited (${outcome.payment.status}): the bursary will review it; quote reference ${reference}.`,
          data,
        });
      case "unchanged":
        throw new ApiError(
          409,
          `This payment is ${outcome.payment.status} now, not waiting to be paid: nothing was cancelled.`,
        );
    }
  });

  return app;
}

/** The request's channel as the gateway is asked for it. */
function channelChoice(
  request: { channel: OfflineChannel; ussd_bank?: UssdBankCode },
  now: Date,
): OfflineChannelChoice {
  const { channel } = request;
  switch (channel) {
    case "ussd":
      // OfflinePaymentRequest refuses USSD without a bank.
      return { kind: "ussd", bank: request.ussd_bank! };
    case "bank_transfer":
      return {
        kind: "bank_transfer",
        expiresAt: new Date(now.getTime() + TRANSFER_ACCOUNT_LIFETIME_MS),
      };
    case "remita":
      return { kind: "remita" };
    default:
      return unhandledChannel(channel);
  }
}
