import { sql } from "drizzle-orm";
import { bigint, check, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// The local Paystack sandbox's own tables (decision 129): Paystack's side of a payment, kept apart
// from the portal's. They live in the portal's database so that every instance of the sandbox
// answers for every transaction and a restart forgets nothing; with a real Paystack key they stay
// empty. Amounts are bigint: the sandbox takes any amount a client sends, as Paystack does.

const id = () => integer().primaryKey().generatedAlwaysAsIdentity();
const instant = () => timestamp({ withTimezone: true });
const kobo = () => bigint({ mode: "number" });

/** A payer as Paystack knows one: one per e-mail (stored lowercased), with its customer code. */
export const paystackSandboxCustomers = pgTable("paystack_sandbox_customers", {
  id: id(),
  email: text().notNull().unique(),
  code: text().notNull().unique(),
});

export const paystackSandboxTransactions = pgTable(
  "paystack_sandbox_transactions",
  {
    id: id(),
    reference: text().notNull().unique(),
    accessCode: text().notNull().unique(),
    amountKobo: kobo().notNull(),
    currency: text().notNull(),
    email: text().notNull(),
    callbackUrl: text(),
    /** An object, or the string the client sent (Paystack answers "" for none). */
    metadata: jsonb().$type<Record<string, unknown> | string>().notNull(),
    status: text().notNull(),
    gatewayResponse: text().notNull(),
    channel: text().notNull(),
    createdAt: instant().notNull(),
    paidAt: instant(),
    customerId: integer()
      .notNull()
      .references(() => paystackSandboxCustomers.id),
    authorizationCode: text(),
    /** What arrived, when a transfer brought another amount than the one charged. */
    paidAmountKobo: kobo(),
    /** Refunded or held for a pending refund. */
    refundedKobo: kobo().notNull().default(0),
    /** A bank-transfer charge's account and how long it takes transfers. */
    accountNumber: text(),
    accountExpiresAt: instant(),
    /** A USSD charge's code to dial. */
    ussdCode: text(),
  },
  (table) => [
    check(
      "paystack_sandbox_transactions_status",
      sql`${table.status} in ('abandoned', 'pending', 'success', 'failed', 'reversed')`,
    ),
    check(
      "paystack_sandbox_transactions_channel",
      sql`${table.channel} in ('card', 'bank_transfer', 'ussd')`,
    ),
    check(
      "paystack_sandbox_transactions_refunds_within_amount",
      sql`${table.refundedKobo} between 0 and ${table.amountKobo}`,
    ),
  ],
);

export const paystackSandboxRefunds = pgTable(
  "paystack_sandbox_refunds",
  {
    id: id(),
    transactionId: integer()
      .notNull()
      .references(() => paystackSandboxTransactions.id),
    amountKobo: kobo().notNull(),
    merchantNote: text().notNull(),
    customerNote: text().notNull(),
    status: text().notNull(),
    createdAt: instant().notNull(),
  },
  (table) => [
    check(
      "paystack_sandbox_refunds_status",
      sql`${table.status} in ('pending', 'processed', 'failed')`,
    ),
  ],
);
