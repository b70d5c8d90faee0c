import { describe, expect, it } from "vitest";
import { problemIn } from "./portal.ts";

describe("problemIn", () => {
  it("counts the portal's structured warnings and errors by message, numbers blanked", () => {
    const line = (level: string, message: string, facts = {}) =>
      JSON.stringify({
        time: "2026-11-23T15:00:00.000Z",
        level,
        name: "portal",
        message,
        ...facts,
      });
    expect(problemIn(line("warn", "sign-in refused", { reason: "password" }))).toBe(
      "warn: sign-in refused",
    );
    expect(
      problemIn(
        line("error", "paystack did not start a payment", {
          reference: "CCE-1",
          error: "Paystack did not answer within 10000 ms",
        }),
      ),
    ).toBe("error: paystack did not start a payment (Paystack did not answer within # ms)");
    expect(problemIn(line("info", "courses registered"))).toBeNull();
  });

  it("counts an unstructured line naming an error, but not a stack's frames", () => {
    expect(problemIn("TimeoutError: The operation was aborted due to timeout")).toBe(
      "TimeoutError: The operation was aborted due to timeout",
    );
    expect(
      problemIn("    at async call (file:///dist/server/chunks/server-api_12.mjs:40:7)"),
    ).toBeNull();
    expect(problemIn("Portal ready on http://localhost:4600")).toBeNull();
  });

  it("counts one kind once whatever the reference or address in it", () => {
    const webhook = (reference: string) =>
      `Paystack sandbox: charge.success webhook for ${reference} could not reach http://localhost:4600/api/paystack/webhook: TimeoutError`;
    expect(problemIn(webhook("CCE-20261123-WRAEZB7F1"))).toBe(
      problemIn(webhook("CCE-20261123-PDQS4E9RRPMS")),
    );
    expect(problemIn(webhook("CCE-20261123-WRAEZB7F1"))).toBe(
      "Paystack sandbox: charge.success webhook for # could not reach # TimeoutError",
    );
  });
});
