import { and, eq } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { payments } from "../db/schema.ts";
import { recordAudit } from "../audit/audit.ts";
import { flagForBursary } from "./bursary-flags.ts";
import { recordPaymentEvent } from "./payment-events.ts";
import type { PaymentRow } from "./credit.ts";

/**
 * Takes back the credit of a payment Paystack reversed or refunded after we credited it: the
 * payment stops counting (its status leaves `success`), the student's fee status is flagged for
 * the bursary, and the audit log says so — with the bursar who recorded it, or no one when
 * Paystack's own webhook told us (decision 102). Answers false when it was not credited.
 */
export async function takeBackCredit(
  db: Database | Transaction,
  payment: PaymentRow,
  change: { status: "refunded" | "reversed"; cause: string; staffId: number | null; at: Date },
): Promise<boolean> {
  const { status, cause, staffId, at } = change;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(payments)
      .set({ status, gatewayResponse: cause })
      .where(and(eq(payments.id, payment.id), eq(payments.status, "success")))
      .returning({ id: payments.id });
    if (!row) return false;
    await recordPaymentEvent(tx, payment.id, "reversed", at, { cause, status });
    const reason = `Payment ${payment.reference} (${payment.session}, ${payment.paymentOption}) no longer counts: ${cause}`;
    await flagForBursary(tx, { studentId: payment.studentId, paymentId: payment.id, reason, at });
    await recordAudit(
      tx,
      {
        staffId,
        action: "payment.uncredit",
        entity: "payment",
        entityId: payment.reference,
        before: { status: "success" },
        after: { status, cause },
      },
      at,
    );
    return true;
  });
}
