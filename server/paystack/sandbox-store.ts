import { randomBytes } from "node:crypto";
import { and, desc, eq, gte, lte, notInArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { preparedQuery } from "../db/prepared.ts";
import {
  paystackSandboxCustomers as customers,
  paystackSandboxRefunds as refunds,
  paystackSandboxTransactions as transactions,
} from "./sandbox-schema.ts";

/**
 * The states a sandbox transaction can be in: a bank-transfer or USSD charge waits as pending;
 * reversed means refunded in full or charged back.
 */
export type SandboxStatus = "abandoned" | "pending" | "success" | "failed" | "reversed";

/** How a sandbox transaction is paid: the checkout's card, or a charge paid away from it. */
export type SandboxChannel = "card" | "bank_transfer" | "ussd";

/** One transaction as the sandbox remembers it. */
export type SandboxTransaction = {
  id: number;
  reference: string;
  accessCode: string;
  amountKobo: number;
  currency: string;
  email: string;
  callbackUrl: string | null;
  metadata: Record<string, unknown> | string;
  status: SandboxStatus;
  gatewayResponse: string;
  createdAt: Date;
  paidAt: Date | null;
  customer: { id: number; code: string };
  authorizationCode: string | null;
  channel: SandboxChannel;
  /** What arrived, when a transfer brought another amount than the one charged. */
  paidAmountKobo: number | null;
  /** Refunded so far, or held for a pending refund (sandbox-refunds.ts). */
  refundedKobo: number;
  /** A bank-transfer charge's account, and until when it takes transfers. */
  accountNumber: string | null;
  accountExpiresAt: Date | null;
  /** A USSD charge's code to dial. */
  ussdCode: string | null;
};

export type NewSandboxTransaction = Pick<
  SandboxTransaction,
  "amountKobo" | "currency" | "email" | "callbackUrl" | "metadata"
> & {
  /** The client's reference; without one the sandbox makes one up, as Paystack does. */
  reference: string | undefined;
  channel?: SandboxChannel;
} & Partial<Pick<SandboxTransaction, "accountNumber" | "accountExpiresAt" | "ussdCode">>;

/** A refund as the sandbox remembers it, with the transaction it takes money back from. */
export type SandboxRefund = {
  id: number;
  transaction: SandboxTransaction;
  amountKobo: number;
  merchantNote: string;
  customerNote: string;
  status: "pending" | "processed" | "failed";
  createdAt: Date;
};

/** Which transactions `GET /transaction` lists: created within [from, to], with a status, one page. */
export type SandboxListFilter = {
  from?: Date;
  to?: Date;
  status?: SandboxStatus;
  offset: number;
  limit: number;
};

const NOT_COMPLETED = "The transaction was not completed";
const SETTLED: SandboxStatus[] = ["success", "reversed"];
// Identity columns are integers: a longer number cannot name a row (and must not reach a query).
const ROW_ID = /^[1-9]\d{0,8}$/;

type TransactionRow = typeof transactions.$inferSelect;
type RefundRow = typeof refunds.$inferSelect;

// The checkout page, its payment and every verify look a transaction up by one of these two.
const transactionBy = (
  column: typeof transactions.reference | typeof transactions.accessCode,
  name: string,
) =>
  preparedQuery((database) =>
    database
      .select({ transaction: transactions, customerCode: customers.code })
      .from(transactions)
      .innerJoin(customers, eq(customers.id, transactions.customerId))
      .where(eq(column, sql.placeholder("key")))
      .prepare(name),
  );
const byReference = transactionBy(transactions.reference, "sandbox_transaction_by_reference");
const byAccessCode = transactionBy(transactions.accessCode, "sandbox_transaction_by_access_code");
const customerCode = preparedQuery((database) =>
  database
    .select({ code: customers.code })
    .from(customers)
    .where(eq(customers.id, sql.placeholder("id")))
    .prepare("sandbox_customer_code"),
);

/**
 * The sandbox's transactions, customers and refunds, in its own tables of the portal's database
 * (decision 129). Every change is one conditional statement or one database transaction, so any
 * number of sandbox instances on one database agree: a reference is taken once, a payment is
 * marked paid once (one webhook), and money held for a refund is held once. Ids come from the
 * tables' identity sequences, never from a counter in a process.
 */
export function createSandboxStore(db: Database) {
  const withCustomer = () =>
    db
      .select({ transaction: transactions, customerCode: customers.code })
      .from(transactions)
      .innerJoin(customers, eq(customers.id, transactions.customerId));
  type Joined = { transaction: TransactionRow; customerCode: string };
  const fromJoined = ({ transaction, customerCode }: Joined) =>
    toTransaction(transaction, customerCode);

  async function findOne(where: SQL) {
    const [row] = await withCustomer().where(where).limit(1);
    return row ? fromJoined(row) : undefined;
  }

  async function findByKey(query: typeof byReference, key: string) {
    const [row] = await query(db).execute({ key });
    return row ? fromJoined(row) : undefined;
  }

  /** Adds the customer code to a row an UPDATE returned (a customer's code never changes). */
  async function withCode(row: TransactionRow | undefined) {
    if (!row) return undefined;
    const [customer] = await customerCode(db).execute({ id: row.customerId });
    return toTransaction(row, customer!.code);
  }

  // One customer per e-mail, made by whichever instance sees the e-mail first.
  async function customerFor(email: string) {
    const [customer] = await db
      .insert(customers)
      .values({ email: email.toLowerCase(), code: `CUS_${randomCode(15)}` })
      .onConflictDoUpdate({ target: customers.email, set: { email: sql`excluded.email` } })
      .returning();
    return customer!;
  }

  function findByReference(reference: string): Promise<SandboxTransaction | undefined> {
    return findByKey(byReference, reference);
  }

  async function refundWithTransaction(
    row: RefundRow | undefined,
  ): Promise<SandboxRefund | undefined> {
    if (!row) return undefined;
    const transaction = await findOne(eq(transactions.id, row.transactionId));
    return { ...row, status: row.status as SandboxRefund["status"], transaction: transaction! };
  }

  return {
    findByReference,
    findByAccessCode(accessCode: string): Promise<SandboxTransaction | undefined> {
      return findByKey(byAccessCode, accessCode);
    },
    /** By Paystack's numeric id, given as text; undefined for text that cannot be one. */
    async findById(id: string): Promise<SandboxTransaction | undefined> {
      return ROW_ID.test(id) ? findOne(eq(transactions.id, Number(id))) : undefined;
    },

    /** One page of transactions, newest first, with how many match and what they add up to. */
    async list(filter: SandboxListFilter) {
      const where = and(
        filter.from ? gte(transactions.createdAt, filter.from) : undefined,
        filter.to ? lte(transactions.createdAt, filter.to) : undefined,
        filter.status ? eq(transactions.status, filter.status) : undefined,
      );
      const [totals] = await db
        .select({
          total: sql<string>`count(*)`,
          volume: sql<string>`coalesce(sum(${transactions.amountKobo}), 0)`,
        })
        .from(transactions)
        .where(where);
      const rows = await withCustomer()
        .where(where)
        .orderBy(desc(transactions.id))
        .limit(filter.limit)
        .offset(filter.offset);
      return {
        transactions: rows.map(fromJoined),
        total: Number(totals!.total),
        volumeKobo: Number(totals!.volume),
      };
    },

    /** Records an unpaid transaction; undefined when the client's reference is taken already. */
    async create(
      fields: NewSandboxTransaction,
      now: Date,
    ): Promise<SandboxTransaction | undefined> {
      const channel = fields.channel ?? "card";
      const customer = await customerFor(fields.email);
      // The unique indexes decide: a taken reference is refused; a made-up reference or access
      // code that collides with another is simply drawn again.
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const reference = fields.reference ?? randomCode(10);
        const [row] = await db
          .insert(transactions)
          .values({
            reference,
            accessCode: randomCode(15),
            amountKobo: fields.amountKobo,
            currency: fields.currency,
            email: fields.email,
            callbackUrl: fields.callbackUrl,
            metadata: fields.metadata,
            channel,
            // Paystack reports an initialized, unpaid transaction as abandoned, and a charge that
            // waits for a transfer or a dialled code as pending.
            status: channel === "card" ? "abandoned" : "pending",
            gatewayResponse: channel === "card" ? NOT_COMPLETED : "Transaction in progress",
            createdAt: now,
            customerId: customer.id,
            accountNumber: fields.accountNumber ?? null,
            accountExpiresAt: fields.accountExpiresAt ?? null,
            ussdCode: fields.ussdCode ?? null,
          })
          .onConflictDoNothing()
          .returning();
        if (row) return toTransaction(row, customer.code);
        if (fields.reference !== undefined && (await findByReference(reference))) return undefined;
      }
      throw new Error("The Paystack sandbox could not draw an unused reference and access code");
    },

    /**
     * Marks a transaction paid, with `amountKobo` when another amount arrived than the one
     * charged. Answers the paid transaction, or undefined (and changes nothing) when it already
     * was paid, or was refunded: only one caller, in any instance, sends its webhook.
     */
    async markPaid(transaction: SandboxTransaction, now: Date, amountKobo?: number) {
      const [row] = await db
        .update(transactions)
        .set({
          status: "success",
          paidAmountKobo:
            amountKobo !== undefined && amountKobo !== transaction.amountKobo ? amountKobo : null,
          gatewayResponse: "Successful",
          paidAt: now,
          authorizationCode: `AUTH_${randomCode(10)}`,
        })
        .where(and(eq(transactions.id, transaction.id), notInArray(transactions.status, SETTLED)))
        .returning();
      return withCode(row);
    },

    /** Marks a transaction declined by the card issuer, unless it was already paid; answers it as it now is. */
    async markDeclined(transaction: SandboxTransaction): Promise<SandboxTransaction> {
      const [row] = await db
        .update(transactions)
        .set({ status: "failed", gatewayResponse: "Declined" })
        .where(and(eq(transactions.id, transaction.id), notInArray(transactions.status, SETTLED)))
        .returning();
      return (await withCode(row)) ?? (await findOne(eq(transactions.id, transaction.id)))!;
    },

    /** A paid transaction taken back (a chargeback); false unless it was paid. */
    async markReversed(reference: string): Promise<boolean> {
      const rows = await db
        .update(transactions)
        .set({ status: "reversed" })
        .where(and(eq(transactions.reference, reference), eq(transactions.status, "success")))
        .returning({ id: transactions.id });
      return rows.length > 0;
    },

    /**
     * Records a pending refund and holds its amount on the transaction at once, in one database
     * transaction; undefined when the transaction is not paid or has less than that left.
     */
    async createRefund(
      transaction: SandboxTransaction,
      refund: Pick<SandboxRefund, "amountKobo" | "merchantNote" | "customerNote" | "createdAt">,
    ): Promise<SandboxRefund | undefined> {
      const created = await db.transaction(async (tx) => {
        const [held] = await tx
          .update(transactions)
          .set({ refundedKobo: sql`${transactions.refundedKobo} + ${refund.amountKobo}` })
          .where(
            and(
              eq(transactions.id, transaction.id),
              eq(transactions.status, "success"),
              sql`${transactions.amountKobo} - ${transactions.refundedKobo} >= ${refund.amountKobo}`,
            ),
          )
          .returning({ id: transactions.id });
        if (!held) return undefined;
        const [row] = await tx
          .insert(refunds)
          .values({ ...refund, transactionId: transaction.id, status: "pending" })
          .returning();
        return row;
      });
      return refundWithTransaction(created);
    },

    async findRefund(id: string): Promise<SandboxRefund | undefined> {
      if (!ROW_ID.test(id)) return undefined;
      const [row] = await db
        .select()
        .from(refunds)
        .where(eq(refunds.id, Number(id)));
      return refundWithTransaction(row);
    },

    /** One page of refunds created within [from, to], newest first, with how many match (`GET /refund`). */
    async listRefunds(filter: Omit<SandboxListFilter, "status">) {
      const where = and(
        filter.from ? gte(refunds.createdAt, filter.from) : undefined,
        filter.to ? lte(refunds.createdAt, filter.to) : undefined,
      );
      const [totals] = await db
        .select({
          total: sql<string>`count(*)`,
          failed: sql<string>`count(*) filter (where ${refunds.status} = 'failed')`,
        })
        .from(refunds)
        .where(where);
      const rows = await db
        .select()
        .from(refunds)
        .where(where)
        .orderBy(desc(refunds.id))
        .limit(filter.limit)
        .offset(filter.offset);
      const page = await Promise.all(rows.map(refundWithTransaction));
      return {
        refunds: page as SandboxRefund[],
        total: Number(totals!.total),
        failed: Number(totals!.failed),
      };
    },

    /** Ids and ages of the refunds still pending: those a stopped instance meant to settle. */
    pendingRefunds(): Promise<{ id: number; createdAt: Date }[]> {
      return db
        .select({ id: refunds.id, createdAt: refunds.createdAt })
        .from(refunds)
        .where(eq(refunds.status, "pending"));
    },

    /**
     * Settles a pending refund: a failed one frees its money again; a processed one that leaves
     * nothing on the transaction makes it reversed. Undefined when it was settled already.
     */
    async settleRefund(
      id: number,
      outcome: "processed" | "failed",
    ): Promise<SandboxRefund | undefined> {
      const settled = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(refunds)
          .set({ status: outcome })
          .where(and(eq(refunds.id, id), eq(refunds.status, "pending")))
          .returning();
        if (!row) return undefined;
        await tx
          .update(transactions)
          .set(
            outcome === "failed"
              ? { refundedKobo: sql`${transactions.refundedKobo} - ${row.amountKobo}` }
              : {
                  status: sql`case when ${transactions.refundedKobo} >= ${transactions.amountKobo} then 'reversed' else ${transactions.status} end`,
                },
          )
          .where(eq(transactions.id, row.transactionId));
        return row;
      });
      return refundWithTransaction(settled);
    },
  };
}

export type SandboxStore = ReturnType<typeof createSandboxStore>;

function toTransaction(row: TransactionRow, customerCode: string): SandboxTransaction {
  const { customerId, ...fields } = row;
  return {
    ...fields,
    status: row.status as SandboxStatus,
    channel: row.channel as SandboxChannel,
    customer: { id: customerId, code: customerCode },
  };
}

/** A random lowercase alphanumeric code, the shape of Paystack's access codes. */
export function randomCode(length: number): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join("");
}

/** Paystack's local card fee: 1.5% + ₦100 (waived under ₦2,500), capped at ₦2,000. */
export function paystackFeeKobo(amountKobo: number): number {
  const flat = amountKobo >= 250_000 ? 10_000 : 0;
  return Math.min(Math.round(amountKobo * 0.015) + flat, 200_000);
}

/** The `data` object of `GET /transaction/verify/:reference` and of `charge.success` webhooks. */
export function toVerifyData(transaction: SandboxTransaction) {
  const paid = transaction.status === "success";
  const amount = transaction.paidAmountKobo ?? transaction.amountKobo;
  const paidAt = transaction.paidAt?.toISOString() ?? null;
  const createdAt = transaction.createdAt.toISOString();
  return {
    id: transaction.id,
    domain: "test",
    status: transaction.status,
    reference: transaction.reference,
    receipt_number: null,
    amount,
    message: null,
    gateway_response: transaction.gatewayResponse,
    paid_at: paidAt,
    created_at: createdAt,
    channel: transaction.channel,
    currency: transaction.currency,
    ip_address: "127.0.0.1",
    metadata: transaction.metadata,
    log: null,
    fees: paid ? paystackFeeKobo(amount) : null,
    fees_split: null,
    authorization: transaction.authorizationCode
      ? testAuthorization(transaction.authorizationCode, transaction.channel)
      : {},
    customer: {
      id: transaction.customer.id,
      first_name: null,
      last_name: null,
      email: transaction.email,
      customer_code: transaction.customer.code,
      phone: null,
      metadata: null,
      risk_action: "default",
      international_format_phone: null,
    },
    plan: null,
    split: {},
    order_id: null,
    paidAt,
    createdAt,
    requested_amount: transaction.amountKobo,
    pos_transaction_data: null,
    source: null,
    fees_breakdown: null,
    connect: null,
    transaction_date: createdAt,
    plan_object: {},
    subaccount: {},
  };
}

export type SandboxVerifyData = ReturnType<typeof toVerifyData>;

// Paystack's documented Visa test card; a transfer or USSD payment names its channel instead.
function testAuthorization(authorizationCode: string, channel: SandboxChannel) {
  const card = {
    authorization_code: authorizationCode,
    bin: "408408",
    last4: "4081",
    exp_month: "12",
    exp_year: "2030",
    channel: "card",
    card_type: "visa ",
    bank: "TEST BANK",
    country_code: "NG",
    brand: "visa",
    reusable: true,
    signature: `SIG_${authorizationCode.slice(5)}`,
    account_name: null,
    receiver_bank_account_number: null,
    receiver_bank: null,
  };
  if (channel === "card") return card;
  return {
    ...card,
    bin: "",
    last4: "",
    exp_month: "",
    exp_year: "",
    channel,
    card_type: "",
    brand: "",
    reusable: false,
  };
}
