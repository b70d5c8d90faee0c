import { z } from "zod";
import { LARGEST_RECORD_ID } from "../validation/lists.ts";
import { PAYMENT_OPTIONS, type PaymentOption } from "./fee-status.ts";
import { parseNairaToKobo } from "./naira-input.ts";
import { readLevel, type Cell } from "../structure/structure-cells.ts";
import { OTHER_FEE_KINDS } from "./fee-kinds.ts";
import { GATEWAYS } from "./gateway-names.ts";

/** The exact first line of a fee schedule CSV file, for import and export alike (decision 095). */
export const FEE_CSV_HEADER = [
  "session",
  "programme",
  "level",
  "study_mode",
  "payment_option",
  "amount_naira",
] as const;

/** What a CSV cell or a form field says for "every programme" or "every study mode". */
export const ALL = "all";

export function readAmount(text: string): Cell<number> {
  const answer = parseNairaToKobo(text);
  return "kobo" in answer ? { value: answer.kobo } : answer;
}

/** A payment option by its value ("latefees") or its label ("Late Fees"). */
export function readPaymentOption(text: string): Cell<PaymentOption> {
  const wanted = text.trim().toLowerCase();
  const option = PAYMENT_OPTIONS.find(
    (entry) => entry.value === wanted || entry.label.toLowerCase() === wanted,
  );
  return option
    ? { value: option.value }
    : {
        problem: `The payment option must be one of ${PAYMENT_OPTIONS.map((entry) => entry.value).join(", ")}; "${text}" is not.`,
      };
}

/** A study mode such as "Full Time" (spaces tidied); blank or "all" means every study mode (null). */
export function readStudyMode(text: string): Cell<string | null> {
  const mode = text.trim().replace(/\s+/g, " ");
  if (mode === "" || mode.toLowerCase() === ALL) return { value: null };
  if (mode.length > 40) return { problem: "The study mode is longer than 40 characters." };
  return { value: mode };
}

export function readSessionName(text: string): Cell<string> {
  const name = text.trim();
  return /^\d{4}\/\d{4}$/.test(name)
    ? { value: name }
    : { problem: `The session must look like 2025/2026; "${text}" is not.` };
}

/** A zod field read by one of the cell readers, so forms, JSON and CSV rows say the same thing. */
const cell = <T>(read: (text: string) => Cell<T>, missing: string) =>
  z.union([z.string(), z.number()], { error: missing }).transform((input, context): T => {
    const result = read(String(input));
    if ("problem" in result) {
      context.addIssue({ code: "custom", message: result.problem });
      return z.NEVER;
    }
    return result.value;
  });

/** An amount in naira as typed ("45,000.50") or sent as a number, read to whole kobo. */
export const NairaAmount = cell(readAmount, "Enter the amount in naira, like 45,000.00.");
const amount = NairaAmount;
/** "", "all" and null mean every programme. */
const programmeId = z
  .union(
    [
      z.literal("").transform(() => null),
      z.literal(ALL).transform(() => null),
      z.null(),
      z.coerce.number().int().positive().max(LARGEST_RECORD_ID),
    ],
    {
      error: "Choose a programme, or all programmes.",
    },
  )
  .default(null);

/**
 * The gateways the bursar allows for a fee (decision 189): a list, or one name as a form with a
 * single box ticked sends it; none (an empty list) means every gateway the portal offers.
 */
export const AllowedGateways = z
  .union([z.enum(GATEWAYS), z.array(z.enum(GATEWAYS)).max(GATEWAYS.length * 2)], {
    error: `Choose gateways from ${GATEWAYS.join(", ")}, or none for every one offered.`,
  })
  .transform((chosen) => GATEWAYS.filter((name) => [chosen].flat().includes(name)));

/** POST /staff/fees: one fee for a session, level, option, and a programme and study mode or all. */
export const FeeRequest = z.object({
  session: cell(readSessionName, "Choose a session."),
  programme_id: programmeId,
  level: cell(readLevel, "Choose a level."),
  study_mode: cell(readStudyMode, "Enter a study mode, or leave it blank for all.").default(null),
  payment_option: cell(readPaymentOption, "Choose a payment option."),
  amount_naira: amount,
  gateways: AllowedGateways.default([]),
});
export type FeeRequest = z.infer<typeof FeeRequest>;

/**
 * PATCH /staff/fees/:id: the amount (while nobody has paid the fee) or the gateways it may be
 * paid through (at any time: receipts do not depend on them); the rest is the fee's identity.
 */
export const FeeChange = z
  .object({ amount_naira: amount.optional(), gateways: AllowedGateways.optional() })
  .refine((change) => change.amount_naira !== undefined || change.gateways !== undefined, {
    error: "Enter the amount in naira, like 45,000.00.",
    path: ["amount_naira"],
  });

/** PATCH /staff/fees/sessions/:id/late-fees: the first day late fees can be paid; empty: none. */
export const LateFeesRequest = z.object({
  late_fees_from: z.union(
    [
      z.literal("").transform(() => null),
      z.null(),
      z.iso.date({ error: "Write the date as YYYY-MM-DD." }),
    ],
    {
      error: "Write the date as YYYY-MM-DD, or leave it empty for no late fees.",
    },
  ),
});

export const FeeQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  session: z.string().trim().max(9).optional(),
  /** A programme's id, or "all" for the fees that apply to every programme. */
  programme: z
    .union([z.literal(ALL), z.coerce.number().int().positive().max(LARGEST_RECORD_ID)], {
      error: "Choose a programme from the list.",
    })
    .optional(),
  level: z.coerce.number({ error: "Choose a level from the list." }).int().optional(),
});

export const StaffFee = z.object({
  id: z.number(),
  session: z.string(),
  programme_id: z.number().nullable(),
  /** null: every programme. */
  programme: z.string().nullable(),
  level: z.number(),
  study_mode: z.string().nullable(),
  payment_option: z.string(),
  amount_kobo: z.number(),
  /** Credited payments against this fee; once there is one, the amount can no longer change. */
  credited_payments: z.number(),
  /** The gateways the bursar allows for it; empty: every one the portal offers. */
  gateways: z.array(z.enum(GATEWAYS)),
  /** The accounts Remita splits its payments between (decision 190); 0: no split. */
  split_accounts: z.number(),
});
export type StaffFee = z.infer<typeof StaffFee>;

export const FeePage = z.object({
  data: z.array(StaffFee),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
  sessions: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      is_current: z.boolean(),
      late_fees_from: z.string().nullable(),
    }),
  ),
  programmes: z.array(z.object({ id: z.number(), name: z.string() })),
  study_modes: z.array(z.string()),
  /** The gateways the portal offers (PAYMENT_GATEWAYS): a fee may be narrowed to some of them. */
  offered_gateways: z.array(z.object({ name: z.enum(GATEWAYS), label: z.string() })),
  /** College-wide fees of other kinds (a transcript), each with the one in force (decision 182). */
  other_fees: z.array(
    z.object({
      kind: z.enum(OTHER_FEE_KINDS.map((entry) => entry.kind)),
      label: z.string(),
      fee: z
        .object({
          id: z.number(),
          amount_kobo: z.number(),
          credited_payments: z.number(),
          gateways: z.array(z.enum(GATEWAYS)),
        })
        .nullable(),
    }),
  ),
});
export type FeePage = z.infer<typeof FeePage>;

/** POST /staff/fees/other: the amount of a college-wide fee such as the transcript fee. */
export const OtherFeeRequest = z.object({
  kind: z.enum(
    OTHER_FEE_KINDS.map((entry) => entry.kind),
    { error: "Choose which fee." },
  ),
  amount_naira: amount,
  /** Unsent: as they were (every offered one for a new fee). */
  gateways: AllowedGateways.optional(),
});

/** Why a fee that students have paid cannot change, and what to do instead. */
export const PAID_FEE_IS_FIXED =
  "Students have paid this fee, so its amount cannot change: their receipts must keep matching the schedule. Add a new fee with the same session, programme, level, study mode and option instead; it replaces this one for payments started from now on.";
