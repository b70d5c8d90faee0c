/**
 * A one-time message for the next page, such as 'Login successful' after sign-in. The proxy sets
 * it as a short-lived HttpOnly cookie with the redirect; the page server shows it once and deletes
 * it, so it survives the navigation (and works without JavaScript). The cookie names a message,
 * never carries text: a planted cookie can only show one of these.
 */
export const FLASH_COOKIE = "portal_flash";

/** Long enough for the slowest page after sign-in to load on 3G; a stale flash would mislead. */
export const FLASH_MAX_AGE_SECONDS = 60;

const FLASH_MESSAGES = { "signed-in": "Login successful" } as const;
export type Flash = keyof typeof FLASH_MESSAGES;

/** The message a flash cookie's value names, or null for anything else. */
export function flashMessage(value: string | undefined): string | null {
  return value !== undefined && Object.hasOwn(FLASH_MESSAGES, value)
    ? FLASH_MESSAGES[value as Flash]
    : null;
}
