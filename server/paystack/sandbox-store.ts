import { randomBytes } from "node:crypto";

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
  /** Refunded so far (sandbox-refunds.ts). */
  refundedKobo: number;
};

export type NewSandboxTransaction = Pick<
  SandboxTransaction,
  "reference" | "amountKobo" | "currency" | "email" | "callbackUrl" | "metadata"
> & { channel?: SandboxChannel };

const NOT_COMPLETED = "The transaction was not completed";

/** In-memory transactions, found by reference or by checkout access code. */
export function createSandboxStore() {
  const byReference = new Map<string, SandboxTransaction>();
  const referenceByAccessCode = new Map<string, string>();
  const customersByEmail = new Map<string, { id: number; code: string }>();
  let lastId = 0;

  function customerFor(email: string) {
    const key = email.toLowerCase();
    let customer = customersByEmail.get(key);
    if (!customer) {
      customer = { id: customersByEmail.size + 1, code: `CUS_${randomCode(15)}` };
      customersByEmail.set(key, customer);
    }
    return customer;
  }

  return {
    findByReference(reference: string): SandboxTransaction | undefined {
      return byReference.get(reference);
    },
    /** Every transaction, newest first, as Paystack's list answers. */
    all(): SandboxTransaction[] {
      return [...byReference.values()].reverse();
    },
    findByAccessCode(accessCode: string): SandboxTransaction | undefined {
      const reference = referenceByAccessCode.get(accessCode);
      return reference === undefined ? undefined : byReference.get(reference);
    },
    /** Records an unpaid transaction; the caller has checked the reference is unused. */
    create(fields: NewSandboxTransaction, now: Date): SandboxTransaction {
      const channel = fields.channel ?? "card";
      const transaction: SandboxTransaction = {
        ...fields,
        channel,
        paidAmountKobo: null,
        id: ++lastId,
        accessCode: randomCode(15),
        // Paystack reports an initialized, unpaid transaction as abandoned, and a charge that
        // waits for a transfer or a dialled code as pending.
        status: channel === "card" ? "abandoned" : "pending",
        gatewayResponse: channel === "card" ? NOT_COMPLETED : "Transaction in progress",
        createdAt: now,
        paidAt: null,
        customer: customerFor(fields.email),
        authorizationCode: null,
        refundedKobo: 0,
      };
      byReference.set(transaction.reference, transaction);
      referenceByAccessCode.set(transaction.accessCode, transaction.reference);
      return transaction;
    },
  };
}

export type SandboxStore = ReturnType<typeof createSandboxStore>;

/**
 * Marks a transaction paid, with `amountKobo` when another amount arrived than the one charged.
 * Returns false (and changes nothing) when it already was, or was refunded.
 */
export function markPaid(transaction: SandboxTransaction, now: Date, amountKobo?: number): boolean {
  if (transaction.status === "success" || transaction.status === "reversed") return false;
  transaction.status = "success";
  if (amountKobo !== undefined && amountKobo !== transaction.amountKobo) {
    transaction.paidAmountKobo = amountKobo;
  }
  transaction.gatewayResponse = "Successful";
  transaction.paidAt = now;
  transaction.authorizationCode = `AUTH_${randomCode(10)}`;
  return true;
}

/** Marks a transaction declined by the card issuer, unless it was already paid. */
export function markDeclined(transaction: SandboxTransaction): void {
  if (transaction.status === "success" || transaction.status === "reversed") return;
  transaction.status = "failed";
  transaction.gatewayResponse = "Declined";
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
  return { ...card, bin: "", last4: "", exp_month: "", exp_year: "", channel, card_type: "", brand: "", reusable: false };
}
