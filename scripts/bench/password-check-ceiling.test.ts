import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { measurePasswordCheckCeiling } from "./password-check-ceiling.ts";

describe("the password-check ceiling beside the sign-in row", () => {
  it("counts the CPU of real checks at the portal's cost, one per core at once, and scales it to every core", async () => {
    const ceiling = await measurePasswordCheckCeiling(3, 2);
    expect(ceiling).toMatchObject({ checks: 6, atOnce: 2 });
    // An argon2id check at m=7 MiB, t=5 takes milliseconds on any machine, never microseconds.
    expect(ceiling.cpuMsPerCheck).toBeGreaterThan(1);
    expect(ceiling.checksPerSecond).toBeCloseTo(
      (availableParallelism() * 1000) / ceiling.cpuMsPerCheck,
      6,
    );
  });
});
