import { z } from "zod";

// Remita's first-generation invoice API as its official SDKs (RemitaNet/remita-rrr-generator-
// status-{php,dotnet,python,nodejs}), SystemSpecs' own samples and its Magento plugin show it
// (decision 188 names each source). The contract tests hold both sides to these: what our client
// sends, as the sandbox receives it, and what the sandbox answers. They are strict where the
// sources agree (every value a string, lowercase SHA-512 hex, the JSONP wrapper) so that client
// and sandbox cannot drift apart together from what Remita does.

const HASH = z.string().regex(/^[0-9a-f]{128}$/, "a lowercase SHA-512 hex");
const DIGITS = z.string().regex(/^\d+$/, "digits as text");
const NAIRA = z.string().regex(/^\d+(\.\d{1,2})?$/, "naira as text");
const CODE = z.string().regex(/^\d{2,3}$/, "a two- or three-digit code as text");
/** Remita's time format: "2023-01-16 08:18:54 AM". */
const REMITA_TIME = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [AP]M$/);

/** The paths, from the SDKs' ApplicationUrl / constants. */
export const REMITA_PATHS = {
  paymentInit: "/remita/exapp/api/v1/send/api/echannelsvc/merchant/api/paymentinit",
  /** `{merchantId}/{rrr}/{hash}/status.reg` after it. */
  echannel: "/remita/exapp/api/v1/send/api/echannelsvc",
  legacy: "/remita/ecomm",
  deactivate: "/remita/exapp/api/v1/send/api/echannelsvc/v2/api/deactivate.json",
  finalize: "/remita/ecomm/finalize.reg",
} as const;

export const StatusPath = z
  .string()
  .regex(
    /^\/remita\/(exapp\/api\/v1\/send\/api\/echannelsvc|ecomm)\/\d+\/[^/]+\/[0-9a-f]{128}\/(status|orderstatus)\.reg$/,
  );

/** `Authorization: remitaConsumerKey=<merchantId>,remitaConsumerToken=<hash>`, no space. */
export const AuthorizationHeader = z
  .string()
  .regex(/^remitaConsumerKey=\d+,remitaConsumerToken=[0-9a-f]{128}$/);

/** paymentinit's JSON body: every value a string; never the API key. */
export const PaymentInitRequest = z.strictObject({
  serviceTypeId: DIGITS,
  amount: NAIRA,
  orderId: z.string().min(1),
  payerName: z.string().min(1),
  payerEmail: z.email(),
  payerPhone: z.string(),
  description: z.string().min(1),
  customFields: z
    .array(z.strictObject({ name: z.string().min(1), value: z.string(), type: z.literal("ALL") }))
    .optional(),
  lineItems: z
    .array(
      z.strictObject({
        lineItemsId: z.string().min(1),
        beneficiaryName: z.string().min(1),
        beneficiaryAccount: z.string().regex(/^\d{10}$/),
        bankCode: z.string().regex(/^\d{3}$/),
        beneficiaryAmount: NAIRA,
        deductFeeFrom: z.enum(["0", "1"]),
      }),
    )
    .min(1)
    .optional(),
});

/** paymentinit's answer as text: `jsonp (` + the JSON object + `)`. */
export const PaymentInitAnswerText = z.string().regex(/^jsonp \(\{.*\}\)$/s);

/** The object inside paymentinit's JSONP: an RRR of 12 digits with 025, an empty one otherwise. */
export const PaymentInitAnswer = z.strictObject({
  statuscode: CODE,
  RRR: z.string().regex(/^(\d{12})?$/),
  status: z.string().min(1),
});

/** status.reg and orderstatus.reg, plain JSON (SystemSpecs' capture from demo and [PK]'s samples). */
export const StatusAnswer = z.strictObject({
  amount: z.number().nonnegative(),
  RRR: z.string(),
  orderId: z.string(),
  message: z.string().min(1),
  paymentDate: REMITA_TIME.optional(),
  transactiontime: z.union([REMITA_TIME, z.literal("")]),
  status: CODE,
});

/** deactivate.json's body: the RRR, the merchant and SHA512(rrr + apiKey + merchantId). */
export const DeactivateRequest = z.strictObject({ rrr: DIGITS, merchantId: DIGITS, hash: HASH });

export const DeactivateAnswer = z.strictObject({ statuscode: CODE, status: z.string().min(1) });

/** The form posted to finalize.reg from the payer's browser. */
export const FinalizeForm = z.strictObject({
  merchantId: DIGITS,
  hash: HASH,
  rrr: z.string().regex(/^\d{12}$/),
  responseurl: z.url({ protocol: /^https?$/ }),
  paymenttype: z.string().optional(),
});

/** Where Remita sends the browser back: the response URL with RRR and orderID in the query. */
export const ReturnQuery = z.object({
  RRR: z.string().regex(/^\d{12}$/),
  orderID: z.string().min(1),
});

/** One element of a payment notification, as two independent C# models and [PK] give it. */
export const NotificationItem = z.object({
  rrr: z.string().min(1),
  channel: z.string().min(1),
  amount: z.number().nonnegative(),
  transactiondate: z.string(),
  debitdate: z.string(),
  bank: z.string(),
  branch: z.string(),
  serviceTypeId: z.string(),
  orderRef: z.string().min(1),
  orderId: z.string().min(1),
  payerName: z.string(),
  payerPhoneNumber: z.string(),
  payerEmail: z.string(),
  type: z.string(),
});

/** A payment notification: a JSON array of payments, POSTed unsigned. */
export const NotificationBody = z.array(NotificationItem).min(1);
