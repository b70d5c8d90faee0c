import { setTimeout as sleep } from "node:timers/promises";
import type { z } from "zod";
import { GatewayError } from "../payments/gateway.ts";
import { koboToNairaText, nairaToKobo } from "./amount.ts";
import { finalizeHash, paymentInitHash, remitaAuthorization, statusHash } from "./hash.ts";
import {
  DeactivateAnswer,
  DUPLICATE_ORDER_CODES,
  DUPLICATE_REQUEST,
  meaningOf,
  PaymentInitAnswer,
  PlainRefusal,
  readRemitaJson,
  readRemitaTime,
  StatusAnswer,
  type CodeMeaning,
} from "./responses.ts";
import { REMITA_PATHS } from "./contract-schemas.ts";

/** One beneficiary's share of a split invoice; the shares add up to the invoice's amount. */
export type RemitaLineItem = {
  id: string;
  beneficiaryName: string;
  beneficiaryAccount: string;
  bankCode: string;
  amountKobo: number;
  /** Remita's charge is taken from this share; exactly one share bears it. */
  bearsCharge: boolean;
};

/** What an RRR is generated for (paymentinit). */
export type InvoiceInput = {
  serviceTypeId: string;
  /** Our payment reference: Remita knows the invoice by it too, and refuses it a second time. */
  orderId: string;
  amountKobo: number;
  payerName: string;
  payerEmail: string;
  payerPhone: string | null;
  description: string;
  lineItems?: RemitaLineItem[];
  /** Shown on Remita's invoice, e.g. { name: "Matric Number", value: "NCE/2021/0042" }. */
  customFields?: { name: string; value: string }[];
};

/** An invoice as Remita's status calls report it. */
export type RemitaStatus = {
  code: string;
  meaning: Exclude<CodeMeaning, "our-fault" | "unknown-outcome">;
  message: string | null;
  rrr: string | null;
  orderId: string | null;
  amountKobo: number | null;
  /** When it was paid, once it is. */
  paidAt: Date | null;
};

/** The hidden fields of the form the payer's browser posts to Remita's finalize.reg. */
export type PayOnlineForm = {
  action: string;
  fields: { merchantId: string; hash: string; rrr: string; responseurl: string };
};

/**
 * Remita's invoice API in Remita's terms; `createRemitaGateway` (gateway.ts) fits it to the seam.
 * Tests drive the client directly to hold it to the contract (contract-schemas.ts).
 */
export type RemitaClient = {
  /**
   * Generates an RRR for our order id. Never retried on its own; a resend of the same order id
   * is safe: Remita refuses it as a duplicate (028 / 055), and the client then answers the RRR
   * the first request made (`recovered`), found with orderstatus.reg.
   */
  generateRrr(input: InvoiceInput): Promise<{ rrr: string; recovered: boolean }>;
  /** status.reg: the invoice an RRR names (meaning "not-found" when Remita does not know it). */
  statusByRrr(rrr: string): Promise<RemitaStatus>;
  /** orderstatus.reg: the invoice made for our order id. */
  statusByOrderId(orderId: string): Promise<RemitaStatus>;
  /**
   * deactivate.json: the RRR can no longer be paid. "already-paid" when Remita refuses because
   * it was (027). Third-party sources only: no RemitaNet SDK has it.
   */
  cancel(rrr: string): Promise<"cancelled" | "already-paid">;
  /** The form that takes the payer to Remita's page for an RRR, and back to `responseUrl`. */
  payOnlineForm(rrr: string, responseUrl: string): PayOnlineForm;
};

/**
 * A failed Remita call. `code` is Remita's status code when it gave one; `configurationFault`
 * says the code blames our merchant id, key or service type (013, 020, and 023 on paymentinit):
 * an operator must look, and no student is told their payment was refused.
 */
export class RemitaError extends GatewayError {
  readonly code: string | null;
  readonly configurationFault: boolean;

  constructor(
    message: string,
    options: {
      httpStatus?: number | null;
      gatewayMessage?: string | null;
      code?: string | null;
      configurationFault?: boolean;
    } = {},
  ) {
    super(message, options);
    this.name = "RemitaError";
    this.code = options.code ?? null;
    this.configurationFault = options.configurationFault ?? false;
  }
}

type Answer = { httpStatus: number; json: unknown };

const RETRY_BACKOFF_MS = 150;
/** Remita's answers to paymentinit that blame our configuration rather than the request. */
const CONFIGURATION_CODES = new Set(["013", "020", "023"]);

/** A client for Remita's invoice API at `baseUrl` (https://login.remita.net, or the sandbox). */
export function createRemitaClient(options: {
  baseUrl: string;
  merchantId: string;
  apiKey: string;
  /** Per call, including reading the body. Default 10 000 ms. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Extra attempts for a status call after a network error, time-out, 5xx or 997–999. Default 2. */
  verifyRetries?: number;
}): RemitaClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 10_000;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const verifyRetries = options.verifyRetries ?? 2;
  // The key never leaves us in the clear (only hashes of it do), so no message can echo it.
  const { merchantId, apiKey } = options;

  async function call(
    operation: string,
    method: "GET" | "POST",
    path: string,
    init: { body?: unknown; authorization?: string } = {},
  ): Promise<Answer> {
    const signal = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      Accept: "application/json, text/javascript",
    };
    if (init.authorization) headers.Authorization = init.authorization;
    try {
      const response = await fetchImpl(`${baseUrl}${path}`, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal,
      });
      const text = await response.text();
      return { httpStatus: response.status, json: readRemitaJson(text) };
    } catch (error) {
      if (signal.aborted) {
        throw new RemitaError(`Remita did not answer ${operation} within ${timeoutMs} ms`);
      }
      throw new RemitaError(`Could not reach Remita for ${operation}: ${describe(error)}`);
    }
  }

  /** The answer read with `schema`, or the error that says why it cannot be. */
  function read<T>(schema: z.ZodType<T>, operation: string, answer: Answer): T {
    const parsed = schema.safeParse(answer.json);
    if (parsed.success) return parsed.data;
    const { httpStatus } = answer;
    if (httpStatus < 200 || httpStatus > 299) {
      throw new RemitaError(`Remita answered ${operation} with HTTP ${httpStatus}`, { httpStatus });
    }
    const fields = parsed.error.issues.map((issue) => issue.path.join(".") || "(body)");
    throw new RemitaError(
      `Remita sent an unexpected answer to ${operation} (check: ${fields.join(", ")})`,
      { httpStatus },
    );
  }

  /** The error for a code that is not an answer: our configuration, or Remita failing inside. */
  function codeFailure(operation: string, code: string, text: string | null, httpStatus: number) {
    const said = `${code}${text ? ` "${text}"` : ""}`;
    const meaning = meaningOf(code);
    if (meaning === "unknown-outcome") {
      // Remita may have done it: not a refusal, so nothing is taken as undone.
      return new RemitaError(`Remita could not complete ${operation} (${said})`, {
        httpStatus,
        code,
      });
    }
    return new RemitaError(
      `Remita refused ${operation} (${said}): check REMITA_MERCHANT_ID, REMITA_API_KEY and REMITA_SERVICE_TYPE_ID`,
      { httpStatus, code, gatewayMessage: text ?? code, configurationFault: true },
    );
  }

  async function statusOnce(kind: "rrr" | "order", key: string): Promise<RemitaStatus> {
    const operation = kind === "rrr" ? "status.reg" : "orderstatus.reg";
    const hash = statusHash({ key, apiKey, merchantId });
    const path = `${REMITA_PATHS.echannel}/${encodeURIComponent(merchantId)}/${encodeURIComponent(key)}/${hash}/${operation}`;
    const answer = await call(operation, "GET", path, {
      authorization: remitaAuthorization(merchantId, hash),
    });
    const body = read(StatusAnswer, operation, answer);
    const meaning = meaningOf(body.status);
    if (meaning === "our-fault" || meaning === "unknown-outcome")
      throw codeFailure(operation, body.status, body.message ?? null, answer.httpStatus);
    const status: RemitaStatus = {
      code: body.status,
      meaning,
      message: body.message ?? null,
      rrr: body.RRR || null,
      orderId: body.orderId || null,
      amountKobo:
        body.amount === null || body.amount === undefined ? null : nairaToKobo(body.amount),
      paidAt: readRemitaTime(body.paymentDate),
    };
    if (meaning === "not-found") return status;
    // An answer about another invoice than the one asked for must not be believed for this one.
    const answered = kind === "rrr" ? status.rrr : status.orderId;
    if (answered !== key) {
      throw new RemitaError(
        `Remita answered ${operation} for ${answered ?? "nothing"} when asked for ${key}`,
        { httpStatus: answer.httpStatus },
      );
    }
    if (status.amountKobo === null) {
      throw new RemitaError(`Remita's ${operation} gave no amount we can read for ${key}`, {
        httpStatus: answer.httpStatus,
      });
    }
    return status;
  }

  async function status(kind: "rrr" | "order", key: string): Promise<RemitaStatus> {
    if (key.trim() === "")
      throw new RemitaError(`${kind === "rrr" ? "An RRR" : "An order id"} is needed`);
    return withRetries(() => statusOnce(kind, key), verifyRetries);
  }

  /** Finds the invoice a duplicate refusal speaks of, and answers its RRR if it is ours as sent. */
  async function recoverDuplicate(input: InvoiceInput, code: string, refusal: string) {
    const existing = await status("order", input.orderId);
    if (existing.meaning === "not-found" || !existing.rrr) {
      throw new RemitaError(
        `Remita refused paymentinit for ${input.orderId} as a duplicate (${refusal}) but knows no invoice for it`,
      );
    }
    if (existing.amountKobo !== input.amountKobo) {
      throw new RemitaError(
        `Remita already has order ${input.orderId} for another amount (${existing.amountKobo} kobo, not ${input.amountKobo})`,
        { gatewayMessage: refusal, code },
      );
    }
    return { rrr: existing.rrr, recovered: true };
  }

  return {
    async generateRrr(input) {
      checkLineItems(input);
      const amount = koboToNairaText(input.amountKobo);
      const hash = paymentInitHash({
        merchantId,
        serviceTypeId: input.serviceTypeId,
        orderId: input.orderId,
        amount,
        apiKey,
      });
      const answer = await call("paymentinit", "POST", REMITA_PATHS.paymentInit, {
        authorization: remitaAuthorization(merchantId, hash),
        body: paymentInitBody(input, amount),
      });
      const plain = PlainRefusal.safeParse(answer.json);
      if (plain.success && plain.data.status === DUPLICATE_REQUEST)
        return recoverDuplicate(input, "028", plain.data.statusMessage ?? DUPLICATE_REQUEST);
      const body = read(PaymentInitAnswer, "paymentinit", answer);
      const code = body.statuscode;
      const text = body.status ?? null;
      const rrr = (body.RRR ?? "").trim();
      if (code === "025" && /^\d{6,20}$/.test(rrr)) return { rrr, recovered: false };
      if (DUPLICATE_ORDER_CODES.has(code)) return recoverDuplicate(input, code, text ?? code);
      // [RJS] lists 025 for "Error Processing Request" too: without an RRR nothing is known.
      if (code === "025" || meaningOf(code) === "unknown-outcome") {
        throw codeFailure("paymentinit", code === "025" ? "999" : code, text, answer.httpStatus);
      }
      if (CONFIGURATION_CODES.has(code))
        throw codeFailure("paymentinit", code, text, answer.httpStatus);
      throw new RemitaError(`Remita refused paymentinit (${code}${text ? ` "${text}"` : ""})`, {
        httpStatus: answer.httpStatus,
        code,
        gatewayMessage: text ?? code,
      });
    },

    statusByRrr: (rrr) => status("rrr", rrr),
    statusByOrderId: (orderId) => status("order", orderId),

    async cancel(rrr) {
      const hash = statusHash({ key: rrr, apiKey, merchantId });
      const answer = await call("deactivate.json", "POST", REMITA_PATHS.deactivate, {
        body: { rrr, merchantId, hash },
      });
      const body = read(DeactivateAnswer, "deactivate.json", answer);
      if (body.statuscode === "00") return "cancelled";
      if (body.statuscode === "027") return "already-paid";
      const meaning = meaningOf(body.statuscode);
      if (meaning === "our-fault" || meaning === "unknown-outcome")
        throw codeFailure(
          "deactivate.json",
          body.statuscode,
          body.status ?? null,
          answer.httpStatus,
        );
      throw new RemitaError(`Remita refused to deactivate RRR ${rrr} (${body.statuscode})`, {
        httpStatus: answer.httpStatus,
        code: body.statuscode,
        gatewayMessage: body.status ?? body.statuscode,
      });
    },

    payOnlineForm(rrr, responseUrl) {
      return {
        action: `${baseUrl}${REMITA_PATHS.finalize}`,
        fields: {
          merchantId,
          hash: finalizeHash({ merchantId, rrr, apiKey }),
          rrr,
          responseurl: responseUrl,
        },
      };
    },
  };
}

/** paymentinit's body: every value a string, as the SDKs send it; never the API key. */
export function paymentInitBody(input: InvoiceInput, amount: string) {
  return {
    serviceTypeId: input.serviceTypeId,
    amount,
    orderId: input.orderId,
    payerName: input.payerName,
    payerEmail: input.payerEmail,
    payerPhone: input.payerPhone ?? "",
    description: input.description,
    ...(input.customFields?.length
      ? { customFields: input.customFields.map((field) => ({ ...field, type: "ALL" })) }
      : {}),
    ...(input.lineItems?.length
      ? {
          lineItems: input.lineItems.map((item) => ({
            lineItemsId: item.id,
            beneficiaryName: item.beneficiaryName,
            beneficiaryAccount: item.beneficiaryAccount,
            bankCode: item.bankCode,
            beneficiaryAmount: koboToNairaText(item.amountKobo),
            deductFeeFrom: item.bearsCharge ? "1" : "0",
          })),
        }
      : {}),
  };
}

/**
 * Remita's own split rules, checked before asking (084, 087, 088, 037): a split it would refuse
 * is refused here with the same reason, and nothing is sent.
 */
function checkLineItems(input: InvoiceInput) {
  const items = input.lineItems ?? [];
  if (!items.length) return;
  const refuse = (reason: string) =>
    new RemitaError(`The split of ${input.orderId} cannot be sent to Remita: ${reason}`, {
      gatewayMessage: reason,
    });
  const total = items.reduce((sum, item) => sum + item.amountKobo, 0);
  if (total !== input.amountKobo)
    throw refuse(
      `the line items add up to ${total} kobo, not the ${input.amountKobo} kobo invoiced`,
    );
  const bearers = items.filter((item) => item.bearsCharge).length;
  if (bearers !== 1) throw refuse(`${bearers} line items bear Remita's charge; exactly one must`);
  if (new Set(items.map((item) => item.id)).size !== items.length)
    throw refuse("two line items share an id");
}

async function withRetries<T>(attempt: () => Promise<T>, retries: number): Promise<T> {
  for (let tried = 0; ; tried++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isTransient(error) || tried >= retries) throw error;
      await sleep(RETRY_BACKOFF_MS * (tried + 1));
    }
  }
}

/** No answer, a 5xx, or Remita saying it failed inside (997–999): worth asking again. */
function isTransient(error: unknown): boolean {
  if (!(error instanceof RemitaError)) return false;
  if (error.code !== null) return meaningOf(error.code) === "unknown-outcome";
  return error.httpStatus === null || error.httpStatus >= 500;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? `${error.message} (${code})` : error.message;
}
