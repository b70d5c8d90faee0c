import { z } from "zod";
import { NairaAmount } from "./fee-schedule.ts";

// A fee's split between accounts on Remita (decision 190): what the API takes and answers, shared
// by the server and the bursar's fee page.

/** More beneficiaries than a college ever splits a fee between (TSA, ICT vendor, a union…). */
export const MAX_SPLIT_ITEMS = 10;

export const SPLIT_ACCOUNT_DIGITS =
  "An account number is the 10 digits of the beneficiary's NUBAN, like 0360883515.";
export const SPLIT_BANK_CODE_DIGITS = "A bank code is 3 digits, like 057 (the CBN's code).";
export const ONE_CHARGE_BEARER = "Choose the one account that bears Remita's charge.";

const text = (missing: string) => z.string({ error: missing }).trim();

export const FeeSplitItemRequest = z.object({
  beneficiary_name: text("Give the beneficiary's name as the bank holds it.")
    .min(2, "Give the beneficiary's name as the bank holds it.")
    .max(100, "Keep the beneficiary's name under 100 characters."),
  beneficiary_account: text(SPLIT_ACCOUNT_DIGITS).regex(/^\d{10}$/, SPLIT_ACCOUNT_DIGITS),
  bank_code: text(SPLIT_BANK_CODE_DIGITS).regex(/^\d{3}$/, SPLIT_BANK_CODE_DIGITS),
  amount_naira: NairaAmount,
  bears_charge: z
    .boolean({ error: "Say whether this account bears Remita's charge." })
    .default(false),
});

/**
 * PUT /staff/fees/:id/split: the whole split, replacing the one before; no items removes it. The
 * server checks that the amounts add up to the fee.
 */
export const FeeSplitRequest = z
  .object({
    items: z
      .array(FeeSplitItemRequest, { error: "Send the split as a list of accounts." })
      .max(MAX_SPLIT_ITEMS, `Split a fee between at most ${MAX_SPLIT_ITEMS} accounts.`),
  })
  .superRefine(({ items }, context) => {
    if (!items.length) return;
    const bearers = items.filter((item) => item.bears_charge).length;
    if (bearers !== 1) {
      context.addIssue({
        code: "custom",
        path: ["items"],
        message:
          bearers === 0
            ? `${ONE_CHARGE_BEARER} Remita takes its charge from exactly one of them.`
            : `Only one account can bear Remita's charge; ${bearers} are chosen.`,
      });
    }
    const seen = new Set<string>();
    items.forEach((item, index) => {
      const key = `${item.bank_code}/${item.beneficiary_account}`;
      if (seen.has(key)) {
        context.addIssue({
          code: "custom",
          path: ["items", index, "beneficiary_account"],
          message: `Account ${item.beneficiary_account} at bank ${item.bank_code} is in the split twice: give it one line with the whole amount.`,
        });
      }
      seen.add(key);
    });
  });
export type FeeSplitRequest = z.infer<typeof FeeSplitRequest>;

export const FeeSplitItem = z.object({
  beneficiary_name: z.string(),
  beneficiary_account: z.string(),
  bank_code: z.string(),
  amount_kobo: z.number(),
  bears_charge: z.boolean(),
});
export type FeeSplitItem = z.infer<typeof FeeSplitItem>;

/** GET /staff/fees/:id/split: the fee, and its split (no items: none). */
export const FeeSplitPage = z.object({
  data: z.object({
    fee: z.object({
      id: z.number(),
      kind: z.string(),
      session: z.string(),
      programme: z.string().nullable(),
      level: z.number(),
      study_mode: z.string().nullable(),
      payment_option: z.string(),
      amount_kobo: z.number(),
      /** A newer fee replaced it: its split is kept for the record, and cannot change. */
      replaced: z.boolean(),
    }),
    items: z.array(FeeSplitItem),
  }),
});
export type FeeSplitPage = z.infer<typeof FeeSplitPage>["data"];
