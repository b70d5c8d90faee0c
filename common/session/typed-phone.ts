/**
 * The phone number a student typed into a sign-in that failed without JavaScript. The proxy
 * answers the plain form's POST with a redirect back to /login, which would empty the field; it
 * carries the number in this short-lived HttpOnly cookie instead of the address, so the number
 * stays out of browser history, referrers and request logs. The password is never carried.
 */
export const TYPED_PHONE_COOKIE = "portal_typed_phone";

/** Only the sign-in page reads it, and only on the page the redirect leads to. */
export const TYPED_PHONE_COOKIE_PATH = "/login";
export const TYPED_PHONE_MAX_AGE_SECONDS = 60;

// What a phone number is typed with; anything else (a planted or mangled cookie) is dropped.
const PHONE_CHARACTERS = /^[0-9+() .-]{1,20}$/;

/** `value` if it looks like a typed phone number, else null. */
export function typedPhone(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return PHONE_CHARACTERS.test(trimmed) ? trimmed : null;
}
