import { describe, expect, it } from "vitest";
import { newPaymentReference, ReferenceParam } from "./reference.ts";

describe("newPaymentReference", () => {
  it("is dated, Paystack-safe and different every time", () => {
    const now = new Date("2025-01-15T09:00:00Z");
    const references = Array.from({ length: 500 }, () => newPaymentReference(now));
    for (const reference of references) {
      expect(reference).toMatch(/^CCE-20250115-[0-9A-HJKMNP-TV-Z]{12}$/);
      expect(ReferenceParam.safeParse({ reference }).success).toBe(true);
    }
    expect(new Set(references).size).toBe(references.length);
  });

  it.each(["", "a b", "x".repeat(101), "CCE/1", "<script>"])(
    "the route refuses %j",
    (reference) => {
      expect(ReferenceParam.safeParse({ reference }).success).toBe(false);
    },
  );
});
