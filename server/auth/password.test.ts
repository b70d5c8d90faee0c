import { describe, expect, it } from "vitest";
import { decoyHash, unusablePasswordHash, verifyPassword } from "./password.ts";

describe("a password that was never set", () => {
  it("matches nothing, yet takes as long as checking a wrong password", async () => {
    const decoy = await decoyHash();
    const timed = async (stored: string) => {
      const started = performance.now();
      expect(await verifyPassword("a-guess", stored)).toBe(false);
      return performance.now() - started;
    };
    await timed(decoy);
    const [wrong, unusable] = [await timed(decoy), await timed(unusablePasswordHash())];
    // Both run one full-cost scrypt; a shared machine adds noise, not a missing hash.
    expect(unusable).toBeGreaterThan(wrong / 2);
  });
});
