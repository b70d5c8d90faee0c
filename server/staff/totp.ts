import { createHash, randomBytes } from "node:crypto";
import { Secret } from "otpauth";
import { TOTP_PERIOD_SECONDS, totpFor } from "../../common/staff/totp-uri.ts";

export { totpUri } from "../../common/staff/totp-uri.ts";

/** A new random 160-bit secret in base32, as authenticator apps expect. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/**
 * The time step a code belongs to when it is right for `now` (one step of clock drift either
 * way), or null. Callers refuse a step at or before the last one accepted, so a code seen over
 * someone's shoulder cannot be replayed.
 */
export function acceptedStep(secret: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secret).validate({ token: code, timestamp: now.getTime(), window: 1 });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** The current code: for the demo and tests, which play the authenticator app. */
export function currentCode(secret: string, now: Date): string {
  return totpFor(secret).generate({ timestamp: now.getTime() });
}

const RECOVERY_CODE_COUNT = 10;

export const hashRecoveryCode = (code: string) =>
  createHash("sha256").update(code.trim().toLowerCase().replaceAll(/[\s-]/g, "")).digest("hex");

/** Ten single-use codes (60 random bits each) for a lost phone; we keep only their hashes. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const hex = randomBytes(8).toString("hex").slice(0, 12);
    return `${hex.slice(0, 4)}-${hex.slice(4, 8)}-${hex.slice(8, 12)}`;
  });
  return { codes, hashes: codes.map(hashRecoveryCode) };
}
