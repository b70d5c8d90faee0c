/**
 * The seam between our payments and the gateways that take the money (DESIGN.md, "Payment
 * gateways"; decision 172). Payments, refunds, the reconcilers and the bursary speak only these
 * types; a gateway (Paystack in `server/paystack/`, Remita in `server/remita/`) translates its own API into
 * them. Crediting stays in one place, `applyProviderResult`, whichever gateway answered.
 */
import type { PayInstructions } from "../../common/payments/offline-payment.ts";
import type { OfflineChannelChoice } from "../../common/payments/channels.ts";
import type { FeeKind } from "../../common/payments/fee-kinds.ts";
import type { GatewayName } from "../../common/payments/gateway-names.ts";

/** The gateways a payment row can name (common/payments/gateway-names.ts): each is in `PaymentGateways`. */
export { GATEWAYS, type GatewayName } from "../../common/payments/gateway-names.ts";

/**
 * A payment as we ask its gateway about it: our reference, and the gateway's own for it once it
 * gave one (Remita's RRR). A gateway that knows payments by our reference (Paystack) ignores the
 * second.
 */
export type PaymentAtGateway = { reference: string; gatewayReference: string | null };

/**
 * A payment as its gateway reports it. `status` uses Paystack's words, which are ours too:
 * `success` is paid, `failed` and `reversed` are final, and any other word (pending, ongoing,
 * abandoned…) means not paid yet; another gateway maps its own codes to these.
 */
export type GatewayTransaction = {
  reference: string;
  status: string;
  amountKobo: number;
  currency: string;
  paidAt: Date | null;
  /** How the money came (the gateway's word: card, bank_transfer, ussd, bank…), when it says. */
  channel: string | null;
  /** The gateway's own sentence about the outcome, shown to the bursary. */
  gatewayResponse: string | null;
  /** The gateway's own reference for the payment (Remita's RRR), when it has one of its own. */
  gatewayReference?: string | null;
};

/** One page of the gateway's transactions, for the bursary's reconciliation. */
export type TransactionPage = {
  transactions: (GatewayTransaction & { createdAt: Date })[];
  pageCount: number;
};

/** A refund as the gateway lists it; `status` is the gateway's: pending, processing, processed, failed… */
export type GatewayRefund = {
  id: number;
  transactionReference: string;
  amountKobo: number;
  currency: string;
  status: string;
  createdAt: Date;
};

/** What we ask a gateway for when a student pays by card on its checkout page. */
export type CheckoutInput = {
  reference: string;
  amountKobo: number;
  email: string;
  /** Where the gateway sends the student back, with the reference, once they have paid. */
  callbackUrl: string;
  metadata: Record<string, unknown>;
};

/** What we ask a gateway for when a student pays by bank transfer, USSD or a Remita RRR. */
export type OfflineChargeInput = {
  reference: string;
  amountKobo: number;
  email: string;
  metadata: Record<string, unknown>;
  channel: OfflineChannelChoice;
  /** What the payment is for: Remita invoices each kind under its own service type. Unset: school fee. */
  serviceKind?: FeeKind;
  /** The payer as an invoice names them; Remita prints it on the invoice a bank reads. */
  payer?: { name: string; phone: string | null; matricNo?: string | null };
  /** The fee's split between beneficiary accounts (Remita's line items); the amounts add up to the fee. */
  lineItems?: {
    id: string;
    beneficiaryName: string;
    beneficiaryAccount: string;
    bankCode: string;
    amountKobo: number;
    /** Remita's charge is taken from this share; exactly one bears it. */
    bearsCharge: boolean;
  }[];
};

/** A period and page of the gateway's records. */
export type ListQuery = { from: Date; to: Date; page: number; perPage: number };

/**
 * What a gateway's notification (Paystack's webhook) said, once its signature is proved: a
 * payment's new state, a refund's outcome, or something we do not act on.
 */
export type GatewayNotification =
  | { kind: "payment"; transaction: GatewayTransaction }
  | {
      kind: "refund";
      outcome: "processed" | "failed";
      /** The gateway's id of the refund, when the notification carries it. */
      refundId: number | null;
      reference: string;
      amountKobo: number;
      currency: string;
    }
  /**
   * A gateway whose notifications carry no proof (Remita's) only says which payments may have
   * changed: each is believed only once the gateway's status call, asked by us, confirms it.
   */
  | { kind: "claims"; payments: PaymentAtGateway[] }
  | { kind: "ignored"; event: string | null };

/** The calls our payments make of a gateway. Calls that create something are never retried. */
export type PaymentGateway = {
  readonly name: GatewayName;
  /** How students and staff know it, in every sentence that names it ("Paystack"). */
  readonly label: string;
  startCheckout(input: CheckoutInput): Promise<{ authorizationUrl: string }>;
  startOfflineCharge(input: OfflineChargeInput): Promise<PayInstructions>;
  /** Resolves null when the gateway does not know the payment. */
  verify(payment: PaymentAtGateway): Promise<GatewayTransaction | null>;
  /**
   * What the gateway offers merchants beyond paying and checking. Paystack has both. Remita has
   * neither: its payments are reconciled one by one through `verify`, and its refunds are paid by
   * the bursary outside the portal and recorded; the methods below then refuse, never guess.
   */
  readonly offers: { transactionList: boolean; refundApi: boolean };
  /**
   * Withdraws an unpaid payment so it can no longer be paid anywhere, for a gateway whose payments
   * stay payable after the student has left (a Remita RRR, at any bank branch for 90 days).
   * "already-paid" when the gateway refuses because the money came: it is then to be credited.
   * Absent where an unpaid payment closes by itself (Paystack's checkout and transfer account).
   */
  cancel?(payment: PaymentAtGateway): Promise<"cancelled" | "already-paid">;
  /** One page of transactions created between `from` and `to` (inclusive), newest first. */
  listTransactions(query: ListQuery): Promise<TransactionPage>;
  /** One page of refunds created between `from` and `to` (inclusive), newest first. */
  listRefunds(query: ListQuery): Promise<{ refunds: GatewayRefund[]; pageCount: number }>;
  refund(input: {
    reference: string;
    amountKobo: number;
    merchantNote: string;
  }): Promise<{ id: number; status: string }>;
  /**
   * Reads a notification: for a gateway that signs them, only once its signature over the raw
   * body is proved, null otherwise so nothing in it is believed; for one that does not, as claims
   * to confirm.
   */
  readNotification(rawBody: string, headers: Headers): GatewayNotification | null;
};

/** Every gateway the portal is configured with, by name. */
export type PaymentGateways = Record<GatewayName, PaymentGateway>;

/**
 * A gateway call that failed. The message is safe to log: a gateway never puts its secret in it.
 * `gatewayMessage` is the gateway's own refusal, when it refused rather than failed to answer.
 */
export class GatewayError extends Error {
  /** The HTTP status the gateway answered with; null when no answer arrived (network, time-out). */
  readonly httpStatus: number | null;
  readonly gatewayMessage: string | null;

  constructor(
    message: string,
    options: { httpStatus?: number | null; gatewayMessage?: string | null } = {},
  ) {
    super(message);
    this.name = "GatewayError";
    this.httpStatus = options.httpStatus ?? null;
    this.gatewayMessage = options.gatewayMessage ?? null;
  }

  /**
   * The gateway said no (a refusal, or a 4xx): nothing was done. No answer, a 5xx or an answer we
   * could not read leaves it unknown whether the gateway did what was asked.
   */
  get isRefusal(): boolean {
    return (
      this.gatewayMessage !== null ||
      (this.httpStatus !== null && this.httpStatus >= 400 && this.httpStatus < 500)
    );
  }
}

/** The gateway that holds a payment: the one it was started with, recorded on its row. */
export function gatewayOf(gateways: PaymentGateways, payment: { gateway: string }): PaymentGateway {
  const gateway = gateways[payment.gateway as GatewayName];
  // A row can only name a gateway from GATEWAYS (the column's check); a deployment without it
  // configured cannot ask it anything, which is a configuration fault, not a student's.
  if (!gateway) throw new Error(`payment gateway ${payment.gateway} is not configured`);
  return gateway;
}
