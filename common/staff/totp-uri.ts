import { Secret, TOTP } from "otpauth";

/** RFC 6238 with the parameters every authenticator app accepts: SHA-1, 6 digits, 30 s. */
export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = "College Portal (staff)";

export function totpFor(secret: string, label = "") {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** The otpauth:// address an authenticator app reads from the QR code (shared by the API and the page). */
export function totpUri(secret: string, email: string): string {
  return totpFor(secret, email).toString();
}
