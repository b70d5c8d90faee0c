import { describe, expect, it } from "vitest";
import { feeRefusal, type FeeChoice } from "./fees.ts";
import type { PaymentOption } from "./fee-status.ts";

const choose = (option: PaymentOption): FeeChoice => ({ option, level: 100, session: "2024/2025" });
const SETTLED =
  "Your school fees for 100 level, 2024/2025 are fully paid. There is nothing more to pay for that level and session.";
const PART_FIRST =
  "Pay the first installment (Part Payment) for 100 level, 2024/2025 before the second installment. If you have just paid it, press Requery on the Payments Management page.";
const REST_ONLY =
  "You have paid the first installment for 100 level, 2024/2025. Choose Second Installment to pay the rest.";

describe("feeRefusal", () => {
  it.each<[PaymentOption, string[], string | null]>([
    ["full", [], null],
    ["part", [], null],
    ["latefees", [], null],
    ["second_installment", [], PART_FIRST],
    ["second_installment", ["latefees"], PART_FIRST],
    ["second_installment", ["part"], null],
    ["full", ["part"], REST_ONLY],
    // Paying the same option again is not refused here: initialisation answers 'Payment already made'.
    ["part", ["part"], null],
    ["latefees", ["part"], null],
    ["full", ["full"], SETTLED],
    ["part", ["full"], SETTLED],
    ["second_installment", ["full"], SETTLED],
    ["latefees", ["full"], SETTLED],
    ["latefees", ["part", "second_installment"], SETTLED],
    ["full", ["part", "second_installment"], SETTLED],
  ])("%s after %j → %s", (option, paid, expected) => {
    expect(feeRefusal(choose(option), paid)).toBe(expected);
  });
});
