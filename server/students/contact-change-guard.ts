import type { Database } from "../db/client.ts";
import type { students } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { verifyPassword } from "../auth/password.ts";
import { createRateLimiter, type RateLimitRule } from "../auth/rate-limit.ts";

type Student = typeof students.$inferSelect;

export const PASSWORD_NEEDED = "Enter your current password to change your phone number or e-mail.";
export const PASSWORD_WRONG =
  "That is not your current password. Enter the password you sign in with, or leave your phone number and e-mail as they are.";

/** Wrong passwords per student: the form must be no better for guessing than the sign-in page. */
export const WRONG_PASSWORD_LIMIT: RateLimitRule = { limit: 5, windowMs: 15 * 60_000 };
/** Confirmation links per student: enough for typos, too few to flood an inbox or probe numbers. */
export const LINKS_SENT_LIMIT: RateLimitRule = { limit: 5, windowMs: 60 * 60_000 };

const minutesOf = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
};

/**
 * Lets a change of phone number or e-mail go on only with the student's current password,
 * counting wrong ones (each attempt is counted before the slow check, a right one takes its
 * count back, as sign-in does) and the confirmation links sent.
 */
export async function assertMayChangeContacts(
  deps: { db: Database; now: () => Date },
  student: Student,
  password: string | undefined,
) {
  if (!password) {
    throw new ApiError(400, PASSWORD_NEEDED, { fields: { current_password: PASSWORD_NEEDED } });
  }
  const wrongPasswords = createRateLimiter(deps.db, WRONG_PASSWORD_LIMIT);
  const passwordKey = `contact-change:password:student:${student.id}`;
  const attempt = await wrongPasswords.hit(passwordKey, deps.now());
  if (attempt.blocked) {
    const message = `Too many wrong passwords. Wait ${minutesOf(attempt.retryAfterSeconds)} and try again, or reset your password.`;
    throw new ApiError(429, message, {
      fields: { current_password: message },
      headers: { "Retry-After": String(attempt.retryAfterSeconds) },
    });
  }
  if (!(await verifyPassword(password, student.passwordHash))) {
    throw new ApiError(403, PASSWORD_WRONG, { fields: { current_password: PASSWORD_WRONG } });
  }
  await wrongPasswords.release(passwordKey);

  const links = await createRateLimiter(deps.db, LINKS_SENT_LIMIT).hit(
    `contact-change:links:student:${student.id}`,
    deps.now(),
  );
  if (links.blocked) {
    throw new ApiError(
      429,
      `You have asked for ${LINKS_SENT_LIMIT.limit} confirmation links in the last hour. Wait ${minutesOf(links.retryAfterSeconds)} before changing your phone number or e-mail again.`,
      { headers: { "Retry-After": String(links.retryAfterSeconds) } },
    );
  }
}
