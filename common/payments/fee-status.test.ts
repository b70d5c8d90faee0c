import { describe, expect, it } from "vitest";
import { feeStatus, installmentLabel, isPaidStatus, paymentCompleteFrom } from "./fee-status.ts";

describe("feeStatus (spec section 4)", () => {
  it.each([
    [null, "Not Paid", "danger"],
    [undefined, "Not Paid", "danger"],
    ["full", "Paid (Full Payment)", "success"],
    ["part", "Paid (Part Payment)", "warning"],
    ["second_installment", "Not-Paid", "danger"],
    ["", "Not-Paid", "danger"],
    ["FULL", "Not-Paid", "danger"],
  ])("payment_complete %j → %s", (value, label, tone) => {
    expect(feeStatus(value)).toEqual({ label, tone });
  });
});

describe("paymentCompleteFrom", () => {
  it.each([
    [[], null],
    [["latefees"], null],
    [["part"], "part"],
    [["second_installment"], null],
    [["part", "second_installment"], "full"],
    [["full"], "full"],
    [["full", "latefees"], "full"],
  ])("paid options %j → %j", (paid, expected) => {
    expect(paymentCompleteFrom(paid)).toBe(expected);
  });
});

describe("installmentLabel", () => {
  it.each([
    ["part", "First Installment"],
    ["second_installment", "Second Installment"],
    ["full", "Full"],
    ["latefees", "Late Fees"],
    ["something_new", "something_new"],
  ])("%s → %s", (installment, label) => {
    expect(installmentLabel(installment)).toBe(label);
  });
});

describe("isPaidStatus (Print or Requery)", () => {
  it.each([
    ["paid", true],
    ["PAID", true],
    ["Success", true],
    ["success", true],
    ["pending", false],
    ["failed", false],
    ["successful", false],
    ["", false],
    [null, false],
  ])("%j → %s", (status, expected) => {
    expect(isPaidStatus(status)).toBe(expected);
  });
});
