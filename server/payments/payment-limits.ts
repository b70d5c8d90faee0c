import type { Database } from "../db/client.ts";
import { createRateLimiter } from "../auth/rate-limit.ts";
import { tooManyRequests } from "../http/too-many-requests.ts";

// Both calls reach Paystack on the student's behalf; one account in a loop must not flood
// Paystack or our payments table. Decision 054 says why these numbers are generous enough.

/** `POST /student/school-fee`: each call makes a pending payment and a Paystack transaction. */
export const PAYMENT_STARTS_PER_STUDENT = { limit: 10, windowMs: 30 * 60_000 };
/** `GET /paystack/verify/{reference}` when it asks Paystack (the verify page and Requery). */
export const PAYSTACK_CHECKS_PER_STUDENT = { limit: 20, windowMs: 15 * 60_000 };

/** Per-student counters for the payment calls that reach Paystack; each throws a 429 when spent. */
export function createPaymentLimits(db: Database) {
  const starts = createRateLimiter(db, PAYMENT_STARTS_PER_STUDENT);
  const checks = createRateLimiter(db, PAYSTACK_CHECKS_PER_STUDENT);

  return {
    async countPaymentStart(studentId: number, now: Date) {
      const { blocked, retryAfterSeconds } = await starts.hit(`pay:start:${studentId}`, now);
      if (blocked) {
        throw tooManyRequests(
          `You have started ${PAYMENT_STARTS_PER_STUDENT.limit} payments in the last half hour.`,
          retryAfterSeconds,
          "before starting another. A payment you completed is credited without starting a new one.",
        );
      }
    },

    async countGatewayCheck(studentId: number, now: Date) {
      const { blocked, retryAfterSeconds } = await checks.hit(`pay:verify:${studentId}`, now);
      if (blocked) {
        throw tooManyRequests(
          `Your payments have been checked with Paystack ${PAYSTACK_CHECKS_PER_STUDENT.limit} times in the last 15 minutes.`,
          retryAfterSeconds,
          "and press Requery again. A completed payment is also credited on its own when Paystack tells us.",
        );
      }
    },
  };
}

export type PaymentLimits = ReturnType<typeof createPaymentLimits>;
