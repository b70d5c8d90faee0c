import { setTimeout as sleep } from "node:timers/promises";
import type { z } from "zod";
import type { PayInstructions } from "../../common/payments/offline-payment.ts";
import { ChargeResponse, chargeRequestBody, readPayInstructions } from "./offline-charge.ts";
import {
  GatewayError,
  type CheckoutInput,
  type GatewayRefund,
  type GatewayTransaction,
  type ListQuery,
  type OfflineChargeInput,
  type TransactionPage,
} from "../payments/gateway.ts";
import {
  InitializeResponse,
  PaystackEnvelope,
  RefundListResponse,
  RefundResponse,
  TransactionListResponse,
  VerifyResponse,
} from "./responses.ts";

/** What we send to `POST /transaction/initialize`. The amount is in kobo. */
export type InitializeInput = CheckoutInput;

/**
 * Paystack's API in Paystack's terms; `createPaystackGateway` (gateway.ts) fits it to the seam
 * every payment speaks. Tests drive the client directly to hold it to Paystack's contract.
 */
export type PaystackClient = {
  /** Creates a transaction; never retried, because a retry could create a duplicate. */
  initialize(
    input: InitializeInput,
  ): Promise<{ authorizationUrl: string; accessCode: string; reference: string }>;
  /** Resolves null when Paystack does not know the reference (404 / "Transaction reference not found"). */
  verify(reference: string): Promise<GatewayTransaction | null>;
  /**
   * Creates a bank-transfer or USSD charge (`POST /charge`) and answers what the student needs
   * to pay it. Never retried, like initialize.
   */
  chargeOffline(input: OfflineChargeInput): Promise<PayInstructions>;
  /** One page of transactions created between `from` and `to` (inclusive), newest first. */
  listTransactions(query: ListQuery): Promise<TransactionPage>;
  /** One page of refunds created between `from` and `to` (inclusive), newest first. */
  listRefunds(query: ListQuery): Promise<{ refunds: GatewayRefund[]; pageCount: number }>;
  /** Asks Paystack to refund `amountKobo` of a paid transaction; never retried, like initialize. */
  refund(input: {
    reference: string;
    amountKobo: number;
    merchantNote: string;
  }): Promise<{ id: number; status: string }>;
};

/** A failed Paystack call. The message is safe to log: it never contains the secret key. */
export class PaystackError extends GatewayError {
  constructor(
    message: string,
    options: { httpStatus?: number | null; paystackMessage?: string | null } = {},
  ) {
    super(message, { httpStatus: options.httpStatus, gatewayMessage: options.paystackMessage });
    this.name = "PaystackError";
  }

  /** Paystack's own `message` when it refused the request (`status: false`). */
  get paystackMessage(): string | null {
    return this.gatewayMessage;
  }
}

type Answer = { httpStatus: number; json: unknown };

const RETRY_BACKOFF_MS = 150;

/** A Paystack API client that sends the secret key as a bearer token to `baseUrl`. */
export function createPaystackClient(options: {
  baseUrl: string;
  secretKey: string;
  /** Per call, including reading the body. Default 10 000 ms. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Extra attempts for verify after a network error, time-out or 5xx. Default 2. */
  verifyRetries?: number;
}): PaystackClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 10_000;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const verifyRetries = options.verifyRetries ?? 2;
  const { secretKey } = options;

  // Belt and braces: no message we build contains the key, but Paystack's text or a
  // network error might echo a header back.
  const redact = (text: string) => (secretKey ? text.replaceAll(secretKey, "[secret key]") : text);

  function failure(message: string, details: ConstructorParameters<typeof PaystackError>[1] = {}) {
    const paystackMessage = details.paystackMessage && redact(details.paystackMessage);
    return new PaystackError(redact(message), { ...details, paystackMessage });
  }

  async function call(operation: string, method: string, path: string, body?: unknown) {
    try {
      const response = await fetchImpl(`${baseUrl}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${secretKey}`,
          "Content-Type": "application/json",
          Accept: "application/json",
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      return { httpStatus: response.status, json: parseJson(text) } satisfies Answer;
    } catch (error) {
      if (error instanceof Error && error.name === "TimeoutError") {
        throw failure(`Paystack did not answer ${operation} within ${timeoutMs} ms`);
      }
      // No `cause`: a logged cause would bypass the redaction.
      throw failure(`Could not reach Paystack for ${operation}: ${describe(error)}`);
    }
  }

  function parseAnswer<T>(schema: z.ZodType<T>, operation: string, answer: Answer): T {
    const { httpStatus, json } = answer;
    const envelope = PaystackEnvelope.safeParse(json);
    if (envelope.success && !envelope.data.status) {
      const paystackMessage = envelope.data.message;
      throw failure(`Paystack refused ${operation}: ${paystackMessage}`, {
        httpStatus,
        paystackMessage,
      });
    }
    if (httpStatus < 200 || httpStatus > 299) {
      throw failure(`Paystack answered ${operation} with HTTP ${httpStatus}`, { httpStatus });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((issue) => issue.path.join(".") || "(body)");
      throw failure(
        `Paystack sent an unexpected answer to ${operation} (check: ${fields.join(", ")})`,
        { httpStatus },
      );
    }
    return parsed.data;
  }

  async function verifyOnce(reference: string): Promise<GatewayTransaction | null> {
    const answer = await call(
      "verify",
      "GET",
      `/transaction/verify/${encodeURIComponent(reference)}`,
    );
    if (isUnknownReference(answer)) return null;
    const { data } = parseAnswer(VerifyResponse, "verify", answer);
    if (data.reference !== reference) {
      throw failure(`Paystack verified reference ${data.reference} when asked for ${reference}`, {
        httpStatus: answer.httpStatus,
      });
    }
    return toTransaction(data);
  }

  return {
    async initialize(input) {
      const answer = await call("initialize", "POST", "/transaction/initialize", {
        email: input.email,
        amount: input.amountKobo,
        // Explicit, so a merchant account with another default currency cannot surprise us.
        currency: "NGN",
        reference: input.reference,
        callback_url: input.callbackUrl,
        metadata: input.metadata,
      });
      const { data } = parseAnswer(InitializeResponse, "initialize", answer);
      if (data.reference !== input.reference) {
        throw failure(
          `Paystack initialized reference ${data.reference} instead of ${input.reference}`,
          { httpStatus: answer.httpStatus },
        );
      }
      return {
        authorizationUrl: data.authorization_url,
        accessCode: data.access_code,
        reference: data.reference,
      };
    },

    async chargeOffline(input) {
      const answer = await call("charge", "POST", "/charge", chargeRequestBody(input));
      const { data } = parseAnswer(ChargeResponse, "charge", answer);
      const httpStatus = answer.httpStatus;
      if (data.reference !== input.reference) {
        throw failure(
          `Paystack charged reference ${data.reference} instead of ${input.reference}`,
          {
            httpStatus,
          },
        );
      }
      const instructions = readPayInstructions(data, input.channel);
      if ("problem" in instructions) {
        throw failure(`Paystack's charge cannot be paid offline: ${instructions.problem}`, {
          httpStatus,
        });
      }
      return instructions;
    },

    async listTransactions({ from, to, page, perPage }) {
      const query = new URLSearchParams({
        from: from.toISOString(),
        to: to.toISOString(),
        page: String(page),
        // The spec names it per_page (Paystack's guide says perPage); paging follows meta.pageCount either way.
        per_page: String(perPage),
      });
      const answer = await call("list transactions", "GET", `/transaction?${query}`);
      const { data, meta } = parseAnswer(TransactionListResponse, "list transactions", answer);
      return {
        transactions: data.map((item) => ({
          ...toTransaction(item),
          createdAt: new Date(item.created_at),
        })),
        pageCount: meta.pageCount,
      };
    },

    async listRefunds({ from, to, page, perPage }) {
      const query = new URLSearchParams({
        from: from.toISOString(),
        to: to.toISOString(),
        page: String(page),
        perPage: String(perPage),
      });
      const answer = await call("list refunds", "GET", `/refund?${query}`);
      const { data, meta } = parseAnswer(RefundListResponse, "list refunds", answer);
      return {
        refunds: data.map((item) => ({
          id: item.id,
          transactionReference: item.transaction_reference,
          amountKobo: item.amount,
          currency: item.currency,
          status: item.status,
          createdAt: new Date(item.createdAt),
        })),
        pageCount: meta.pageCount,
      };
    },

    async refund({ reference, amountKobo, merchantNote }) {
      const answer = await call("refund", "POST", "/refund", {
        transaction: reference,
        amount: amountKobo,
        merchant_note: merchantNote,
      });
      const { data } = parseAnswer(RefundResponse, "refund", answer);
      return { id: data.id, status: data.status };
    },

    async verify(reference) {
      if (reference.trim() === "") throw failure("verify needs a transaction reference");
      for (let attempt = 0; ; attempt++) {
        try {
          return await verifyOnce(reference);
        } catch (error) {
          if (!isTransient(error) || attempt >= verifyRetries) throw error;
          await sleep(RETRY_BACKOFF_MS * (attempt + 1));
        }
      }
    },
  };
}

/** Paystack's transaction (verify, list, or a charge.success event) in the seam's words. */
export function toTransaction(
  data: Pick<
    VerifyResponse["data"],
    "reference" | "status" | "amount" | "currency" | "paid_at" | "channel" | "gateway_response"
  >,
): GatewayTransaction {
  return {
    reference: data.reference,
    status: data.status,
    amountKobo: data.amount,
    currency: data.currency,
    paidAt: data.paid_at ? new Date(data.paid_at) : null,
    channel: data.channel ?? null,
    gatewayResponse: data.gateway_response ?? null,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isUnknownReference({ httpStatus, json }: Answer): boolean {
  const envelope = PaystackEnvelope.safeParse(json);
  if (!envelope.success || envelope.data.status) return false;
  // The OpenAPI spec says 404; the live API has also answered 400 with this message.
  return httpStatus === 404 || /reference not found/i.test(envelope.data.message);
}

function isTransient(error: unknown): boolean {
  return error instanceof PaystackError && (error.httpStatus === null || error.httpStatus >= 500);
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? `${error.message} (${code})` : error.message;
}
