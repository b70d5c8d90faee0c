import { describe, expect, it } from "vitest";
import { createMemoryLogger } from "../http/logger.ts";
import {
  decoyHash,
  hashPassword,
  needsRehash,
  OWASP_ARGON2_COST,
  unusablePasswordHash,
  verifyPassword,
} from "./password.ts";
import { upgradePasswordHash } from "./password-upgrade.ts";

const CHEAP = { memoryKiB: 64, passes: 1, parallelism: 1 };

// Written by the scrypt implementation this replaced (N=2^17, r=8, p=1), for "registration-week 2025".
const SCRYPT_FROM_BEFORE_ARGON2 =
  "scrypt$131072$8$1$vjDzpMmy5VZykcGXoI0V7w==$ywG0TPfoV4UIno5dW2lJ9wn9dmCO1x0PGE0IDmfh7hY=";

describe("hashPassword", () => {
  it("writes a PHC string with argon2id at a cost OWASP recommends (7 MiB, 5 passes), a 16-byte salt and a 32-byte hash", async () => {
    const stored = await hashPassword("demo1234");
    const match = /^\$argon2id\$v=19\$m=7168,t=5,p=1\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(
      stored,
    );
    expect(match, stored).not.toBeNull();
    expect(Buffer.from(match![1]!, "base64")).toHaveLength(16);
    expect(Buffer.from(match![2]!, "base64")).toHaveLength(32);
  });

  it("salts every hash, so one password never gives the same string twice", async () => {
    expect(await hashPassword("demo1234", CHEAP)).not.toBe(await hashPassword("demo1234", CHEAP));
  });

  it("records the cost it was given", async () => {
    expect(await hashPassword("demo1234", { memoryKiB: 128, passes: 3, parallelism: 2 })).toMatch(
      /^\$argon2id\$v=19\$m=128,t=3,p=2\$/,
    );
  });
});

describe("verifyPassword", () => {
  it("accepts the password a hash was made from and refuses any other", async () => {
    const stored = await hashPassword("Lagos-2025!");
    expect(await verifyPassword("Lagos-2025!", stored)).toBe(true);
    expect(await verifyPassword("lagos-2025!", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("reads hashes made by the argon2 reference implementation", async () => {
    // phc-winner-argon2's test vector: password "password", salt "somesalt", argon2id m=256 t=2 p=1.
    const reference =
      "$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4";
    expect(await verifyPassword("password", reference)).toBe(true);
    expect(await verifyPassword("passwore", reference)).toBe(false);
  });

  it("still accepts the scrypt hashes stored before argon2id", async () => {
    expect(await verifyPassword("registration-week 2025", SCRYPT_FROM_BEFORE_ARGON2)).toBe(true);
    expect(await verifyPassword("registration-week 2024", SCRYPT_FROM_BEFORE_ARGON2)).toBe(false);
  });

  it("treats a password typed with combining accents like the same password precomposed", async () => {
    const stored = await hashPassword("Ad\u00e9bay\u1ecd", CHEAP);
    expect(await verifyPassword("Ade\u0301bayo\u0323", stored)).toBe(true);
  });

  it("refuses every password for a damaged or foreign hash instead of throwing", async () => {
    const good = await hashPassword("demo1234", CHEAP);
    for (const damaged of [
      good.replace("v=19", "v=16"),
      good.replace("m=64", "m=4"),
      good.replace("t=1", "t=0"),
      good.replace("$argon2id$", "$argon2i$"),
      good.slice(0, good.lastIndexOf("$")),
      good.replace(/\$[^$]+\$([^$]+)$/, "$c2FsdA$$$1"), // a 4-byte salt
      "",
    ]) {
      expect(await verifyPassword("demo1234", damaged), damaged).toBe(false);
    }
  });
});

describe("needsRehash", () => {
  it("is true for the old scrypt hashes", () => {
    expect(needsRehash(SCRYPT_FROM_BEFORE_ARGON2)).toBe(true);
  });

  it("is false for argon2id at the current cost", async () => {
    expect(needsRehash(await hashPassword("demo1234"))).toBe(false);
  });

  it("is true for argon2id at weaker parameters", async () => {
    const { memoryKiB, passes, parallelism } = OWASP_ARGON2_COST;
    for (const weaker of [
      { memoryKiB: 4_096, passes, parallelism },
      { memoryKiB, passes: 1, parallelism },
      { memoryKiB: 64, passes: 1, parallelism: 1 },
    ]) {
      expect(needsRehash(await hashPassword("demo1234", weaker)), JSON.stringify(weaker)).toBe(
        true,
      );
    }
  });

  it("is true for the hashes written at OWASP's 19 MiB, 2-pass setting before decision 132, so they move to the cheaper one", async () => {
    expect(
      needsRehash(await hashPassword("demo1234", { memoryKiB: 19_456, passes: 2, parallelism: 1 })),
    ).toBe(true);
  });

  it("measures against the cost it is given", async () => {
    const cheap = await hashPassword("demo1234", CHEAP);
    expect(needsRehash(cheap, CHEAP)).toBe(false);
    expect(needsRehash(await hashPassword("demo1234"), CHEAP)).toBe(true);
  });
});

describe("upgradePasswordHash", () => {
  it("saves a fresh argon2id hash of the password for an old one", async () => {
    const saved: string[] = [];
    const logger = createMemoryLogger();
    await upgradePasswordHash({
      password: "registration-week 2025",
      stored: SCRYPT_FROM_BEFORE_ARGON2,
      cost: CHEAP,
      save: async (fresh) => saved.push(fresh),
      logger,
      facts: {},
    });
    expect(saved).toHaveLength(1);
    expect(needsRehash(saved[0]!, CHEAP)).toBe(false);
    expect(await verifyPassword("registration-week 2025", saved[0]!)).toBe(true);
  });

  it("leaves a current hash alone", async () => {
    let saves = 0;
    await upgradePasswordHash({
      password: "demo1234",
      stored: await hashPassword("demo1234", CHEAP),
      cost: CHEAP,
      save: async () => (saves += 1),
      logger: createMemoryLogger(),
      facts: {},
    });
    expect(saves).toBe(0);
  });

  it("logs a failed save instead of throwing, so the sign-in goes on", async () => {
    const logger = createMemoryLogger();
    await upgradePasswordHash({
      password: "registration-week 2025",
      stored: SCRYPT_FROM_BEFORE_ARGON2,
      cost: CHEAP,
      save: async () => {
        throw new Error("connection reset");
      },
      logger,
      facts: { studentId: 7 },
    });
    expect(logger.lines.map((line) => JSON.parse(line))).toEqual([
      {
        level: "error",
        message: "password hash not upgraded",
        studentId: 7,
        error: "Error: connection reset",
      },
    ]);
  });
});

describe("a password that was never set", () => {
  it("matches nothing, yet takes as long as checking a wrong password", async () => {
    const decoy = await decoyHash();
    const timed = async (stored: string) => {
      const started = performance.now();
      expect(await verifyPassword("a-guess", stored)).toBe(false);
      return performance.now() - started;
    };
    await timed(decoy);
    // Both run one full-cost argon2id; a missing hash would take well under a millisecond. Timed
    // in turns, so whatever else the machine is doing slows both alike, and the fastest run of
    // each kept, because a shared machine only ever adds time (CI once saw 17.5 ms beside 35.4).
    let wrong = Infinity;
    let unusable = Infinity;
    for (let round = 0; round < 6; round += 1) {
      wrong = Math.min(wrong, await timed(decoy));
      unusable = Math.min(unusable, await timed(unusablePasswordHash()));
    }
    expect(unusable).toBeGreaterThan(wrong / 3);
  });
});
