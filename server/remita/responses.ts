import { z } from "zod";

// What our client demands of Remita's answers: only the fields it reads, each read leniently
// (codes as text or number, amounts as number or text), so that a field Remita adds, drops or
// types differently elsewhere does not stop a payment. The shapes Remita documents, and the
// sandbox answers, are held to the stricter contract in contract-schemas.ts.

// A callback name then its argument: `jsonp ({…})`, `jsonp({…});`. Only the text between the
// parentheses is kept, and it is read as JSON: nothing Remita sends is ever run.
const JSONP = /^[A-Za-z_$][\w$]*\s*\(([\s\S]*)\)\s*;?$/;

/**
 * The JSON inside Remita's answer: the argument of a JSONP wrapper (paymentinit answers
 * `jsonp ({"statuscode":"025",…})`), or the text itself when it is plain JSON (status calls, and
 * some refusals). Undefined for anything else. Never evaluated.
 */
export function readRemitaJson(text: string): unknown {
  const trimmed = text.trim().replace(/^\uFEFF/, "");
  const wrapped = JSONP.exec(trimmed);
  if (wrapped) {
    const inner = parseJson(wrapped[1]!);
    if (inner !== undefined) return inner;
  }
  return parseJson(trimmed);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A status code as Remita writes it ("025", "00"); a number is taken as its digits. */
const Code = z.union([z.string(), z.number().int().nonnegative()]).transform((code) => {
  const text = String(code).trim();
  // [RJS] keeps codes as numbers: 25 is "025", 1 is "01" — Remita's codes are two or three digits.
  if (typeof code === "number") return code < 10 ? `0${text}` : text.padStart(3, "0");
  return text;
});

/** paymentinit's answer, once unwrapped: the code, the RRR (empty unless generated) and a sentence. */
export const PaymentInitAnswer = z.object({
  statuscode: Code,
  RRR: z.string().nullish(),
  status: z.string().nullish(),
});
export type PaymentInitAnswer = z.infer<typeof PaymentInitAnswer>;

/**
 * The plain-JSON refusal SystemSpecs' samples show for a repeated orderId:
 * `{"status":"DUPLICATE_REQUEST","statusMessage":"Duplicate Order Ref",…}`.
 */
export const PlainRefusal = z.object({
  status: z.string().min(1),
  statusMessage: z.string().nullish(),
});

/**
 * status.reg and orderstatus.reg: the invoice as Remita reports it. `amount` is naira;
 * `paymentDate` only once paid; an unknown RRR comes back with status 022 and empty fields.
 */
export const StatusAnswer = z.object({
  status: Code,
  RRR: z.string().nullish(),
  orderId: z.string().nullish(),
  amount: z.union([z.number(), z.string()]).nullish(),
  message: z.string().nullish(),
  paymentDate: z.string().nullish(),
  transactiontime: z.string().nullish(),
});
export type StatusAnswer = z.infer<typeof StatusAnswer>;

/** deactivate.json: `{"statuscode":"00","status":"Successful"}` or a refusal's code. */
export const DeactivateAnswer = z.object({
  statuscode: Code,
  status: z.string().nullish(),
});

/**
 * What a Remita status code means to us. Remita's codes are many; these are the ones its SDKs,
 * SystemSpecs' samples and its published table give a meaning to (decision 188):
 * - `paid`, `pending`, `failed`: the invoice's state, our words success / pending / failed;
 * - `not-found`: Remita does not know the RRR or order (verify answers null);
 * - `our-fault`: our merchant id, key or service type is wrong, which no student caused;
 * - `unknown-outcome`: Remita failed inside and may or may not have done what was asked.
 * Any other code reads as pending: the payment stays open and is asked about again, never
 * credited or failed on a code we cannot read.
 */
export type CodeMeaning =
  "paid" | "pending" | "failed" | "not-found" | "our-fault" | "unknown-outcome";

const MEANINGS: Record<string, CodeMeaning> = {
  "00": "paid",
  "01": "paid",
  "021": "pending",
  "025": "pending",
  "040": "pending",
  "041": "pending",
  "045": "pending",
  "02": "failed",
  "012": "failed",
  "046": "failed",
  "059": "failed",
  "022": "not-found",
  "023": "not-found",
  "013": "our-fault",
  "020": "our-fault",
  "997": "unknown-outcome",
  "998": "unknown-outcome",
  "999": "unknown-outcome",
};

/** The meaning of a status code; an unlisted code is pending (see CodeMeaning). */
export function meaningOf(code: string): CodeMeaning {
  return MEANINGS[code.trim()] ?? "pending";
}

/**
 * Our word for a status the seam reports (GatewayTransaction.status). A failed attempt on an RRR
 * (a declined card: 02, 012, 046, 059) does not end it: the RRR stays payable online or at any
 * bank branch. It is reported as "declined", which crediting reads as not paid yet, so the
 * payment stays pending and the reconciler keeps checking it; "failed" would close it for good
 * (decision 189).
 */
export function transactionStatusOf(meaning: "paid" | "pending" | "failed"): string {
  if (meaning === "paid") return "success";
  return meaning === "failed" ? "declined" : meaning;
}

/** paymentinit's answers to a repeated orderId: Duplicate Order Ref, RRR Already Exist for the orderId. */
export const DUPLICATE_ORDER_CODES: ReadonlySet<string> = new Set(["028", "055"]);
/** The plain-JSON word for the same (SystemSpecs' samples). */
export const DUPLICATE_REQUEST = "DUPLICATE_REQUEST";

/**
 * A time as Remita writes it, "2023-01-16 08:18:54 AM" (or without AM/PM, or ISO), in West
 * Africa Time (UTC+1) when it names no zone: Remita is in Lagos and gives none. Null when it is
 * not a time.
 */
export function readRemitaTime(text: string | null | undefined): Date | null {
  const value = (text ?? "").trim();
  if (value === "") return null;
  const local =
    /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*([AP]M)?$/i.exec(value);
  if (local) {
    const [, year, month, day, hourText, minute, second = "0", half] = local;
    let hour = Number(hourText);
    if (half) {
      if (hour < 1 || hour > 12) return null;
      hour = (hour % 12) + (half.toUpperCase() === "PM" ? 12 : 0);
    }
    if (hour > 23) return null;
    const utc = Date.UTC(
      Number(year),
      Number(month) - 1,
      Number(day),
      hour - 1,
      Number(minute),
      Number(second),
    );
    const date = new Date(utc);
    // Date.UTC rolls 2023-02-31 into March: such a date is not one.
    const check = new Date(utc + 60 * 60_000);
    if (check.getUTCDate() !== Number(day) || check.getUTCMonth() !== Number(month) - 1)
      return null;
    return date;
  }
  // Only a time that names its zone is read any other way.
  if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(value)) return null;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : new Date(parsed);
}

/** A moment as Remita writes times: "2023-01-16 08:18:54 AM", in West Africa Time. */
export function writeRemitaTime(date: Date): string {
  const wat = new Date(date.getTime() + 60 * 60_000);
  const pad = (n: number) => String(n).padStart(2, "0");
  const hour24 = wat.getUTCHours();
  const hour12 = hour24 % 12 === 0 ? 12 : hour24 % 12;
  return (
    `${wat.getUTCFullYear()}-${pad(wat.getUTCMonth() + 1)}-${pad(wat.getUTCDate())} ` +
    `${pad(hour12)}:${pad(wat.getUTCMinutes())}:${pad(wat.getUTCSeconds())} ${hour24 < 12 ? "AM" : "PM"}`
  );
}
