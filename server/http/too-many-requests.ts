import { ApiError } from "./errors.ts";

/**
 * A 429 that tells the student how long to wait, in whole minutes (rounded up, so the wait is
 * never shorter than said), with `Retry-After` in seconds for programs.
 * `tooManyRequests("Too many failed sign-in attempts.", 90, "and try again.")` says
 * "Too many failed sign-in attempts. Wait 2 minutes and try again."
 */
export function tooManyRequests(what: string, retryAfterSeconds: number, then: string) {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new ApiError(429, `${what} Wait ${minutes} minute${minutes === 1 ? "" : "s"} ${then}`, {
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}
