import { sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { preparedQuery } from "../db/prepared.ts";
import { paymentEvents } from "../db/schema.ts";

/** What can happen to a payment; the payment's page lists them in order (decision 100). */
export type PaymentEventKind =
  | "initialised"
  | "initialise-failed"
  | "verify-answer"
  | "webhook-received"
  | "credited"
  | "duplicate"
  | "mismatch"
  | "failed"
  | "abandoned"
  | "refund-awaiting-approval"
  | "refund-declined"
  | "refund-requested"
  | "refund-to-pay-outside"
  | "refund-paid-outside"
  | "refund-unconfirmed"
  | "refund-processed"
  | "refund-failed"
  | "refund-unmatched"
  | "reversed";

/**
 * Records one event of a payment. Call it with the transaction that makes the change it
 * describes, so the history never shows what did not happen nor misses what did.
 */
export async function recordPaymentEvent(
  db: Database | Transaction,
  paymentId: number,
  kind: PaymentEventKind,
  at: Date,
  detail: Record<string, unknown> = {},
) {
  await insertEvent(db).execute({ paymentId, kind, at, detail });
}

// Four per card payment (opened, Paystack's answer to verify and to the webhook, credited).
const insertEvent = preparedQuery((db) =>
  db
    .insert(paymentEvents)
    .values({
      paymentId: sql.placeholder("paymentId"),
      kind: sql.placeholder("kind"),
      at: sql.placeholder("at"),
      detail: sql.placeholder("detail"),
    })
    .prepare("insert_payment_event"),
);
