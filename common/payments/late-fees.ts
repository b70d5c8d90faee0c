import { spelledDate } from "../courses/registration-window.ts";

/**
 * Why late fees for `session` cannot be paid on `today` (college date, YYYY-MM-DD); null when
 * they can: from the session's late-fees day on, never before it, never when none is set.
 */
export function lateFeeRefusal(
  session: string,
  lateFeesFrom: string | null,
  today: string,
): string | null {
  if (lateFeesFrom === null)
    return `No late fee applies in ${session}. Choose another payment option.`;
  if (today < lateFeesFrom) {
    return `Late fees for ${session} apply from ${spelledDate(lateFeesFrom)}. Until then, choose another payment option.`;
  }
  return null;
}
