import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";

// The local Remita sandbox's own tables (decision 188), beside the Paystack sandbox's (decision
// 129): Remita's side of an invoice, kept apart from the portal's payments. In the portal's
// database, so every instance answers for every RRR and a restart forgets nothing, a bank payment
// due later included. With a real Remita key they stay empty.

const instant = () => timestamp({ withTimezone: true });

/** One beneficiary's share of a split invoice, as paymentinit's lineItems gave it (amount in kobo). */
export type SandboxLineItem = {
  lineItemsId: string;
  beneficiaryName: string;
  beneficiaryAccount: string;
  bankCode: string;
  amountKobo: number;
  deductFeeFrom: "0" | "1";
};

export const remitaSandboxInvoices = pgTable(
  "remita_sandbox_invoices",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    rrr: text().notNull().unique(),
    merchantId: text().notNull(),
    serviceTypeId: text().notNull(),
    orderId: text().notNull(),
    amountKobo: bigint({ mode: "number" }).notNull(),
    payerName: text().notNull(),
    payerEmail: text().notNull(),
    payerPhone: text().notNull(),
    description: text().notNull(),
    lineItems: jsonb().$type<SandboxLineItem[]>(),
    customFields: jsonb().$type<{ name: string; value: string }[]>(),
    /** pending until paid; failed after a declined card (still payable); cancelled by deactivate.json. */
    status: text().notNull(),
    /** How it was paid: on Remita's page by card, or over a bank's counter. */
    channel: text(),
    createdAt: instant().notNull(),
    paidAt: instant(),
    /** The response URL the last finalize.reg was given: where its page sends the browser back. */
    responseUrl: text(),
    /** A bank payment on its way: it arrives at this time, by this channel, notifying or not. */
    arrivesAt: instant(),
    arrivalChannel: text(),
    arrivalNotifies: boolean(),
  },
  (table) => [
    unique("remita_sandbox_invoices_order").on(table.merchantId, table.orderId),
    index("remita_sandbox_invoices_arrivals")
      .on(table.arrivesAt)
      .where(sql`${table.arrivesAt} is not null`),
    check(
      "remita_sandbox_invoices_status",
      sql`${table.status} in ('pending', 'paid', 'failed', 'cancelled')`,
    ),
    check(
      "remita_sandbox_invoices_channel",
      sql`${table.channel} is null or ${table.channel} in ('CARDPAYMENT', 'BRANCH')`,
    ),
    check(
      "remita_sandbox_invoices_arrival_channel",
      sql`${table.arrivalChannel} is null or ${table.arrivalChannel} in ('CARDPAYMENT', 'BRANCH')`,
    ),
  ],
);

/**
 * The sandbox's fault switches, one row: the share of API calls answered 5xx before doing
 * anything, and the share whose answer is held back past a client's time-out after doing it.
 */
export const remitaSandboxFaults = pgTable(
  "remita_sandbox_faults",
  {
    id: integer().primaryKey(),
    errorShare: doublePrecision().notNull().default(0),
    timeoutShare: doublePrecision().notNull().default(0),
  },
  (table) => [
    check("remita_sandbox_faults_one_row", sql`${table.id} = 1`),
    check(
      "remita_sandbox_faults_shares",
      sql`${table.errorShare} between 0 and 1 and ${table.timeoutShare} between 0 and 1 and ${table.errorShare} + ${table.timeoutShare} <= 1`,
    ),
  ],
);
