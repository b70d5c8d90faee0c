import { randomBytes, timingSafeEqual } from "node:crypto";
import { deriveKey, type Argon2Cost } from "./hashing-thread.ts";

export type { Argon2Cost } from "./hashing-thread.ts";

/**
 * argon2id cost: m=7 MiB, t=5, p=1, one of the settings OWASP's Password Storage Cheat Sheet lists
 * as giving the same defence as its m=19 MiB, t=2 minimum, trading memory for passes, unless a
 * test asks for less. Here it costs about 13 ms and 7 MiB per hash against 17 ms and 19 MiB
 * (decision 132; decision 110 replaced scrypt's 250 ms and 128 MiB).
 */
export const OWASP_ARGON2_COST: Argon2Cost = { memoryKiB: 7_168, passes: 5, parallelism: 1 };

const ARGON2_VERSION = 19;
const SALT_BYTES = 16;
const KEY_BYTES = 32;

function argon2id(password: string, salt: Buffer, cost: Argon2Cost, keyBytes = KEY_BYTES) {
  return deriveKey({ scheme: "argon2id", password, salt, cost, keyBytes });
}

// The PHC string format's base64: standard alphabet, no padding.
const phcBase64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");

/**
 * Hashes a password as a PHC string, `$argon2id$v=19$m=7168,t=5,p=1$<salt>$<hash>`, which other
 * argon2 tools read and which carries its own cost, so the cost can be raised later.
 */
export async function hashPassword(password: string, cost = OWASP_ARGON2_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await argon2id(password, salt, cost);
  const parameters = `m=${cost.memoryKiB},t=${cost.passes},p=${cost.parallelism}`;
  return `$argon2id$v=${ARGON2_VERSION}$${parameters}$${phcBase64(salt)}$${phcBase64(key)}`;
}

type StoredHash =
  | { scheme: "argon2id"; cost: Argon2Cost; salt: Buffer; key: Buffer }
  | { scheme: "scrypt"; cost: { N: number; r: number; p: number }; salt: Buffer; key: Buffer };

// Salt of at least 8 bytes and a hash of at least 4, the least Node's argon2 accepts.
const ARGON2ID_PHC =
  /^\$argon2id\$v=19\$m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,8})\$([A-Za-z0-9+/]{11,})\$([A-Za-z0-9+/]{6,})$/;

/** The stored value's scheme, cost, salt and key; null for anything no password can match. */
function parseStoredHash(stored: string): StoredHash | null {
  const phc = ARGON2ID_PHC.exec(stored);
  if (phc) {
    const [, memoryKiB, passes, parallelism, salt, key] = phc;
    const cost = {
      memoryKiB: Number(memoryKiB),
      passes: Number(passes),
      parallelism: Number(parallelism),
    };
    // Parameters Node's argon2 would throw on count as damaged, like any other unreadable value.
    if (cost.passes < 1 || cost.parallelism < 1 || cost.memoryKiB < 8 * cost.parallelism)
      return null;
    return {
      scheme: "argon2id",
      cost,
      salt: Buffer.from(salt!, "base64"),
      key: Buffer.from(key!, "base64"),
    };
  }
  // Hashes written before decision 110: `scrypt$N$r$p$salt$key`, standard base64 with padding.
  const [scheme, N, r, p, salt, key] = stored.split("$");
  if (scheme === "scrypt" && salt && key) {
    return {
      scheme: "scrypt",
      cost: { N: Number(N), r: Number(r), p: Number(p) },
      salt: Buffer.from(salt, "base64"),
      key: Buffer.from(key, "base64"),
    };
  }
  return null;
}

/**
 * A stored value no password matches, for a student imported by the registry who has not yet
 * chosen one (they do so through "Forgot password" or an activation link). Random, so no two
 * students share it and reset links (hashed with it) stay distinct.
 */
export const unusablePasswordHash = () => `unusable$${randomBytes(16).toString("base64url")}`;
export const isUnusablePasswordHash = (stored: string) => stored.startsWith("unusable$");

/** Checks a password against an argon2id hash or one of the scrypt hashes stored before it. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStoredHash(stored);
  if (!parsed) {
    // Matches nothing, but takes as long as a wrong password: the answer time must not tell
    // which accounts have never been activated.
    await verifyPassword(password, await decoyHash());
    return false;
  }
  const actual =
    parsed.scheme === "argon2id"
      ? await argon2id(password, parsed.salt, parsed.cost, parsed.key.length)
      : await deriveKey({
          scheme: "scrypt",
          password,
          salt: parsed.salt,
          cost: parsed.cost,
          keyBytes: KEY_BYTES,
        });
  return actual.length === parsed.key.length && timingSafeEqual(actual, parsed.key);
}

/**
 * Whether a hash that just matched should be replaced by a fresh one at `cost`: true for the old
 * scrypt hashes and for argon2id at any other cost, so raising (or lowering) the cost reaches every
 * account at its next sign-in.
 */
export function needsRehash(stored: string, cost = OWASP_ARGON2_COST): boolean {
  const parsed = parseStoredHash(stored);
  if (parsed?.scheme !== "argon2id") return true;
  return (
    parsed.cost.memoryKiB !== cost.memoryKiB ||
    parsed.cost.passes !== cost.passes ||
    parsed.cost.parallelism !== cost.parallelism ||
    parsed.key.length !== KEY_BYTES
  );
}

let decoy: Promise<string> | undefined;
/**
 * A hash to verify against when the phone is unknown, so an unknown phone costs the same
 * time as a wrong password and the answer time does not reveal who has an account.
 */
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(12).toString("hex"));
  return decoy;
}
