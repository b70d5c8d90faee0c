import { z } from "zod";
import { IdParam } from "../validation/lists.ts";

// The bursary's payments, reconciliation and refunds (decisions 100-102): what the API takes
// and answers, shared by the server and the staff pages.

const day = z.iso.date({ error: "Dates are written YYYY-MM-DD." });

export const PAYMENT_STATUSES = [
  "pending",
  "success",
  "failed",
  "abandoned",
  "duplicate",
  "mismatch",
  "refunding",
  "refunded",
  "reversed",
] as const;

export const PaymentSearchQuery = z
  .object({
    q: z.string().trim().max(100).default(""),
    status: z.enum(PAYMENT_STATUSES, { error: "Choose a status from the list." }).optional(),
    from: day.optional(),
    to: day.optional(),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: "The start date must not be after the end date.",
    path: ["to"],
  });
export type PaymentSearchQuery = z.infer<typeof PaymentSearchQuery>;

export const ReferenceParam = z.object({
  reference: z.string().regex(/^[A-Za-z0-9.=-]{1,100}$/, "That is not a payment reference."),
});

const PaymentSummary = z.object({
  reference: z.string(),
  student_id: z.number(),
  student_name: z.string(),
  matric_no: z.string().nullable(),
  option: z.string(),
  level: z.number(),
  session: z.string(),
  amount_kobo: z.number(),
  currency: z.string(),
  status: z.string(),
  generated_at: z.string(),
  paid_at: z.string().nullable(),
  flagged: z.boolean(),
});
export type PaymentSummary = z.infer<typeof PaymentSummary>;

export const PaymentSearchPage = z.object({
  data: z.array(PaymentSummary),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});
export type PaymentSearchPage = z.infer<typeof PaymentSearchPage>;

export const PaymentDetail = z.object({
  data: PaymentSummary.extend({
    /** The gateway the payment went through, as staff know it ("Paystack", "Remita"). */
    gateway: z.string(),
    /** Its gateway has no refund API: a refund is paid by the bursary by bank transfer. */
    refund_outside: z.boolean(),
    paid_amount_kobo: z.number().nullable(),
    paid_currency: z.string().nullable(),
    gateway_response: z.string().nullable(),
    channel: z.string().nullable(),
    flag: z.string().nullable(),
    events: z.array(
      z.object({ at: z.string(), kind: z.string(), detail: z.record(z.string(), z.unknown()) }),
    ),
    refunds: z.array(
      z.object({
        id: z.number(),
        amount_kobo: z.number(),
        status: z.string(),
        reason: z.string(),
        requested_at: z.string(),
        requested_by: z.string(),
        /** Who approved or declined a refund that waited for a second approver. */
        second_person: z.string().nullable(),
        decline_reason: z.string().nullable(),
        outside: z.boolean(),
        transfer_reference: z.string().nullable(),
      }),
    ),
  }),
});
export type PaymentDetail = z.infer<typeof PaymentDetail>["data"];

/** The longest reconciliation one request may cover: Paystack lists it page by page, Remita is asked payment by payment. */
export const MAX_RECONCILIATION_DAYS = 31;

/**
 * How long the staff pages wait for a reconciliation: Remita is asked RRR by RRR, a few at a time
 * with a pause (decision 190), which for a busy month takes a minute or more.
 */
export const RECONCILIATION_TIMEOUT_MS = 4 * 60_000;

export const ReconciliationQuery = z
  .object({
    from: day,
    to: day,
    session: z
      .string()
      .trim()
      .regex(/^\d{4}\/\d{4}$/, "Write the session as 2024/2025.")
      .optional()
      .or(z.literal("").transform(() => undefined)),
  })
  .refine((query) => query.from <= query.to, {
    message: "The start date must not be after the end date.",
    path: ["to"],
  })
  .refine(
    (query) =>
      (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000 < MAX_RECONCILIATION_DAYS,
    {
      message: `A reconciliation covers at most ${MAX_RECONCILIATION_DAYS} days at a time. Choose a shorter range.`,
      path: ["to"],
    },
  );
export type ReconciliationQuery = z.infer<typeof ReconciliationQuery>;

export const RECONCILIATION_GROUPS = [
  "paid_not_credited",
  "credited_unknown",
  "mismatch",
  "refunds",
  "unchecked",
  "matched",
] as const;
export type ReconciliationGroup = (typeof RECONCILIATION_GROUPS)[number];
export const GROUP_TITLES: Record<ReconciliationGroup, string> = {
  paid_not_credited: "Paid at the gateway, not credited",
  credited_unknown: "Credited here, not paid at the gateway",
  mismatch: "Amount or currency mismatch",
  refunds: "Paid, held for a refund or refunded",
  unchecked: "Not checked: the gateway did not answer",
  matched: "Matched",
};

export const ReconciliationRow = z.object({
  group: z.enum(RECONCILIATION_GROUPS),
  reference: z.string(),
  student_name: z.string().nullable(),
  matric_no: z.string().nullable(),
  session: z.string().nullable(),
  our_status: z.string().nullable(),
  our_amount_kobo: z.number().nullable(),
  our_currency: z.string().nullable(),
  gateway_status: z.string().nullable(),
  gateway_amount_kobo: z.number().nullable(),
  gateway_currency: z.string().nullable(),
  created_at: z.string(),
  note: z.string(),
  /** The gateway the row is set against, as staff know it ("Paystack", "Remita"). */
  gateway: z.string(),
  /** The bursar's one click: verify and credit, or record Paystack's reversal. */
  action: z.enum(["credit", "uncredit"]).nullable(),
});
export type ReconciliationRow = z.infer<typeof ReconciliationRow>;

export const ReconciliationReport = z.object({
  data: z.object({
    from: z.string(),
    to: z.string(),
    session: z.string().nullable(),
    totals: z.record(
      z.enum(RECONCILIATION_GROUPS),
      z.object({ count: z.number(), amount_kobo: z.number() }),
    ),
    rows: z.array(ReconciliationRow),
  }),
});
export type ReconciliationReport = z.infer<typeof ReconciliationReport>["data"];

export const PaymentActionRequest = z.object({ reference: ReferenceParam.shape.reference });

/** A form's blank field is no answer: "" reads as absent. */
const blankIsAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    schema.optional(),
  );

export const PAYEE_ACCOUNT_DIGITS =
  "The student's account number is the 10 digits of their NUBAN, like 0123456789.";

/**
 * The student's bank account, for a refund the bursary pays by transfer outside the portal
 * because the payment's gateway has no refund API (Remita; decision 190).
 */
const payeeFields = {
  account_name: blankIsAbsent(
    z
      .string({ error: "Give the name on the student's bank account." })
      .trim()
      .min(3, "Give the name on the student's bank account.")
      .max(100, "Keep the account name under 100 characters."),
  ),
  account_number: blankIsAbsent(
    z
      .string({ error: PAYEE_ACCOUNT_DIGITS })
      .trim()
      .regex(/^\d{10}$/, PAYEE_ACCOUNT_DIGITS),
  ),
  bank: blankIsAbsent(
    z
      .string({ error: "Name the student's bank." })
      .trim()
      .min(2, "Name the student's bank.")
      .max(60, "Keep the bank's name under 60 characters."),
  ),
};

export const RefundRequest = z.object({
  ...payeeFields,
  reference: ReferenceParam.shape.reference,
  /** Omitted: the whole amount Paystack received. */
  amount_kobo: z
    .number({ error: "Give the amount as a whole number of kobo." })
    .int("Give the amount as a whole number of kobo.")
    .positive("A refund must be more than ₦0.")
    .optional(),
  reason: z
    .string({ error: "Give a reason for the refund." })
    .trim()
    .min(3, "Give a reason for the refund.")
    .max(500, "Keep the reason under 500 characters."),
});
export type RefundRequest = z.infer<typeof RefundRequest>;

export const Payee = z.object({
  account_name: z.string(),
  account_number: z.string(),
  bank: z.string(),
});
export type Payee = z.infer<typeof Payee>;

/** What a refund will do, checked by the server before the bursar confirms it (decision 151). */
export const RefundPreview = z.object({
  reference: z.string(),
  student_name: z.string(),
  matric_no: z.string().nullable(),
  amount_kobo: z.number(),
  currency: z.string(),
  /** What Paystack received for the payment. */
  paid_kobo: z.number(),
  reason: z.string(),
  /** The payment counts towards the student's fees (it is credited). */
  credited: z.boolean(),
  /** All of what was paid: a credited payment then stops counting. */
  whole: z.boolean(),
  /** Above REFUND_SECOND_APPROVAL_KOBO: waits for a second approver before Paystack is asked. */
  needs_second_approval: z.boolean(),
  /** The payment's gateway, as staff know it ("Paystack", "Remita"). */
  gateway: z.string(),
  /** Paid by the bursary by bank transfer, outside the portal: the gateway has no refund API. */
  outside: z.boolean(),
  /** Where an outside refund is paid; null for one the gateway pays. */
  payee: Payee.nullable(),
});
export type RefundPreview = z.infer<typeof RefundPreview>;

/** A refund asked for and waiting for a second approver, or one shown for approval. */
export const WaitingRefund = RefundPreview.omit({ needs_second_approval: true }).extend({
  id: z.number(),
  status: z.string(),
  requested_by: z.string(),
  requested_by_id: z.number(),
  requested_at: z.string(),
});
export type WaitingRefund = z.infer<typeof WaitingRefund>;

export const RefundIdParam = IdParam("There is no such refund.");

/** POST /staff/refunds/:id/paid-outside: the bank's reference for the transfer that paid it. */
export const PaidOutsideRequest = z.object({
  transfer_reference: z
    .string({ error: "Give the bank's reference for the transfer." })
    .trim()
    .min(4, "Give the bank's reference for the transfer (at least 4 characters).")
    .max(60, "A transfer reference is at most 60 characters.")
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9/.-]*$/,
      "Write the transfer reference as the bank shows it: letters, digits, and / . - only.",
    ),
});

/** POST /staff/refunds/:id/not-paid-outside: why the transfer could not be made. */
export const NotPaidOutsideRequest = z.object({
  reason: z
    .string({ error: "Say why the transfer could not be made." })
    .trim()
    .min(3, "Say why the transfer could not be made.")
    .max(500, "Keep the reason under 500 characters."),
});

export const DeclineRequest = z.object({
  reason: z
    .string({ error: "Say why the refund is declined." })
    .trim()
    .min(3, "Say why the refund is declined.")
    .max(500, "Keep the reason under 500 characters."),
});
export type DeclineRequest = z.infer<typeof DeclineRequest>;

/** "₦20,000.00 to Amina Bello (COE/2024/001)": who gets how much, as every refund message says it. */
export function refundTo(
  refund: Pick<RefundPreview, "amount_kobo" | "currency" | "student_name" | "matric_no">,
) {
  return `${formatKobo(refund.amount_kobo, refund.currency)} to ${refund.student_name}${refund.matric_no ? ` (${refund.matric_no})` : ""}`;
}

/** A refund as the bursary's lists name it: whose, how much, why and who asked. */
const RefundLine = z.object({
  id: z.number(),
  reference: z.string(),
  student_name: z.string(),
  matric_no: z.string().nullable(),
  amount_kobo: z.number(),
  currency: z.string(),
  reason: z.string(),
  requested_at: z.string(),
  requested_by: z.string(),
});

export const RefundQueue = z.object({
  data: z.object({
    waiting: z.array(
      PaymentSummary.extend({
        paid_amount_kobo: z.number().nullable(),
        paid_currency: z.string().nullable(),
        gateway_response: z.string().nullable(),
        gateway: z.string(),
        refund_outside: z.boolean(),
      }),
    ),
    /** Outside refunds asked and approved, still to pay by bank transfer: every one, oldest first. */
    to_pay_outside: z.array(RefundLine.extend({ payee: Payee })),
    refunds: z.array(
      RefundLine.extend({
        status: z.string(),
        outside: z.boolean(),
        payee: Payee.nullable(),
        transfer_reference: z.string().nullable(),
      }),
    ),
  }),
});
export const WaitingRefunds = z.object({ data: z.array(WaitingRefund) });
export type RefundQueue = z.infer<typeof RefundQueue>["data"];

export const Done = z.object({ status: z.string(), message: z.string() });

/** "₦12,500.00" from kobo: the bursary reads exact amounts. */
export function formatKobo(kobo: number, currency = "NGN") {
  const amount = (kobo / 100).toLocaleString("en-NG", {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return currency === "NGN" ? `₦${amount}` : `${currency} ${amount}`;
}

/** A naira amount typed in a form ("12,500" or "12500.50") as kobo; undefined when blank, NaN when not an amount. */
export function nairaToKobo(text: string): number | undefined {
  const cleaned = text.replace(/[₦,\s]/g, "");
  if (!cleaned) return undefined;
  return /^\d+(\.\d{1,2})?$/.test(cleaned) ? Math.round(Number(cleaned) * 100) : Number.NaN;
}

/** A refund's state in the bursary's words; an outside refund says what is left to do (decision 190). */
export function refundState(refund: {
  status: string;
  outside: boolean;
  transfer_reference: string | null;
}) {
  if (refund.outside) {
    if (refund.status === "pending") return "to refund outside the portal";
    if (refund.status === "processed")
      return `paid outside the portal (transfer ${refund.transfer_reference})`;
    if (refund.status === "failed") return "not paid: the transfer could not be made";
  }
  return refund.status.replace("_", " ");
}
