/** Whether a database error (wrapped by Drizzle, from either driver) is a unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ("code" in cause && cause.code === "23505") return true;
  }
  return false;
}
