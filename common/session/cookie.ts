/**
 * The session cookie: the API's access token, HttpOnly so page scripts never see it.
 * Over https it takes the __Host- prefix, which pins it to our exact origin.
 */
export const SESSION_COOKIE = "portal_session";
export const SECURE_SESSION_COOKIE = "__Host-portal_session";

export const sessionCookieName = (secure: boolean) =>
  secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;

/**
 * The token from a Cookie header. Over https only the __Host- cookie counts: a plain-named one
 * could have been planted by a sibling subdomain.
 */
export function readSessionToken(
  cookieHeader: string | null | undefined,
  secure = false,
): string | null {
  return readTokenCookie(
    cookieHeader,
    secure ? [SECURE_SESSION_COOKIE] : [SESSION_COOKIE, SECURE_SESSION_COOKIE],
  );
}

/**
 * The staff session cookie: another name, so a student's and a staff member's sessions never
 * stand in for each other, even in one browser (docs/decisions/080).
 */
export const STAFF_COOKIE = "portal_staff";
export const SECURE_STAFF_COOKIE = "__Host-portal_staff";
export const staffCookieName = (secure: boolean) => (secure ? SECURE_STAFF_COOKIE : STAFF_COOKIE);

export function readStaffToken(
  cookieHeader: string | null | undefined,
  secure = false,
): string | null {
  return readTokenCookie(
    cookieHeader,
    secure ? [SECURE_STAFF_COOKIE] : [STAFF_COOKIE, SECURE_STAFF_COOKIE],
  );
}

function readTokenCookie(
  cookieHeader: string | null | undefined,
  accepted: string[],
): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name && accepted.includes(name)) {
      const token = value.join("=");
      if (/^[A-Za-z0-9_-]{20,100}$/.test(token)) return token;
    }
  }
  return null;
}

/** Only paths on our own site may follow sign-in (no //host, no scheme, no backslashes). */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.includes("\\")) return "/";
  if (/[\u0000-\u001f]/.test(next) || next.startsWith("/login")) return "/";
  return next;
}

/** Where staff sign-in may lead: only staff pages, never back to the sign-in steps. */
export function safeStaffNextPath(next: string | null | undefined): string {
  const path = safeNextPath(next);
  return path.startsWith("/staff/") && !path.startsWith("/staff/login") ? path : "/staff";
}

/** Browser storage keys the spec clears on logout and on any 401. */
export const BROWSER_SESSION_KEYS = ["student-token", "user-info", "user-token", "staff"] as const;
