/**
 * The student id as the reset link carries it: base64url of the decimal id, without padding,
 * as Django's `urlsafe_base64_encode` writes it (the spec's `/password/reset/{uidb64}/{token}`).
 */
export function encodeUid(studentId: number): string {
  return Buffer.from(String(studentId), "utf8").toString("base64url");
}

/** The student id inside a uidb64, or null when it is not one we could have written. */
export function decodeUid(uidb64: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,16}$/.test(uidb64)) return null;
  const decoded = Buffer.from(uidb64, "base64url").toString("utf8");
  if (!/^[1-9]\d{0,9}$/.test(decoded) || encodeUid(Number(decoded)) !== uidb64) return null;
  const id = Number(decoded);
  return id <= 2_147_483_647 ? id : null;
}
