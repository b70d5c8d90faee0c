import { execFileSync } from "node:child_process";
import { argon2Sync, scryptSync } from "node:crypto";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { deriveKey } from "./hashing-thread.ts";

const CHEAP = { memoryKiB: 64, passes: 1, parallelism: 1 };
const salt = Buffer.from("0123456789abcdef");

describe("deriveKey", () => {
  it("gives the key Node's own argon2id and scrypt give, for many hashes asked at once", async () => {
    const passwords = Array.from({ length: 20 }, (_, index) => `password ${index}`);
    const keys = await Promise.all(
      passwords.map((password, index) =>
        index % 2
          ? deriveKey({ scheme: "argon2id", password, salt, cost: CHEAP, keyBytes: 32 })
          : deriveKey({
              scheme: "scrypt",
              password,
              salt,
              cost: { N: 16, r: 1, p: 1 },
              keyBytes: 32,
            }),
      ),
    );
    passwords.forEach((password, index) => {
      const expected =
        index % 2
          ? argon2Sync("argon2id", {
              message: password,
              nonce: salt,
              memory: 64,
              passes: 1,
              parallelism: 1,
              tagLength: 32,
            })
          : scryptSync(password, salt, 32, { N: 16, r: 1, p: 1 });
      expect(keys[index]!.equals(expected), password).toBe(true);
    });
  });

  it("fails a hash Node refuses with Node's reason, and goes on hashing", async () => {
    const refused = deriveKey({
      scheme: "argon2id",
      password: "x",
      salt,
      cost: { memoryKiB: 1, passes: 1, parallelism: 1 },
      keyBytes: 32,
    });
    await expect(refused).rejects.toThrow(/memory/i);
    const key = await deriveKey({
      scheme: "argon2id",
      password: "x",
      salt,
      cost: CHEAP,
      keyBytes: 16,
    });
    expect(key).toHaveLength(16);
  });

  it("keeps a script alive while it waits for a hash, and lets it exit once none is owed", () => {
    const password = fileURLToPath(new URL("./password.ts", import.meta.url));
    const printed = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { hashPassword } = await import(${JSON.stringify(password)});
         const cost = { memoryKiB: 19456, passes: 2, parallelism: 1 };
         console.log(await hashPassword("demo1234", cost));
         console.log(await hashPassword("demo1235", cost));`,
      ],
      { timeout: 20_000, encoding: "utf8" },
    );
    expect(printed).toMatch(/^\$argon2id\$.*\n\$argon2id\$.*\n$/);
  });
});
