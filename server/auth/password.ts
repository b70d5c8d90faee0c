import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keyLength: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/** scrypt cost: OWASP's recommendation (N=2^17, r=8, p=1) unless a test asks for less. */
export type ScryptCost = { N: number; r: number; p: number };
export const OWASP_SCRYPT_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };

const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, cost: ScryptCost) {
  // scrypt needs 128·N·r bytes; allow that plus headroom instead of Node's 32 MiB default.
  const maxmem = 128 * cost.N * cost.r * 2;
  return scryptAsync(password.normalize("NFKC"), salt, KEY_LENGTH, { ...cost, maxmem });
}

/** Hashes a password as `scrypt$N$r$p$salt$key`, so the cost can be raised later. */
export async function hashPassword(password: string, cost = OWASP_SCRYPT_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64"), key.toString("base64")].join("$");
}

/**
 * A stored value no password matches, for a student imported by the registry who has not yet
 * chosen one (they do so through "Forgot password" or an activation link). Random, so no two
 * students share it and reset links (hashed with it) stay distinct.
 */
export const unusablePasswordHash = () => `unusable$${randomBytes(16).toString("base64url")}`;
export const isUnusablePasswordHash = (stored: string) => stored.startsWith("unusable$");

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !key) {
    // Matches nothing, but takes as long as a wrong password: the answer time must not tell
    // which accounts have never been activated.
    await verifyPassword(password, await decoyHash());
    return false;
  }
  const expected = Buffer.from(key, "base64");
  const actual = await derive(password, Buffer.from(salt, "base64"), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
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
