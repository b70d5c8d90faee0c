import type { Logger } from "../http/logger.ts";
import { hashPassword, needsRehash, type Argon2Cost } from "./password.ts";

/**
 * Called after a password has matched: replaces a hash written by an older scheme or at another
 * cost (decision 110) while the plain password is at hand, which is the only time it can be.
 * `save` writes the new hash only if the stored one is still `stored`, so a password changed
 * meanwhile is never overwritten. A failure is logged and swallowed: the old hash still works, so
 * the sign-in goes on and the upgrade is tried again next time.
 */
export async function upgradePasswordHash(options: {
  password: string;
  stored: string;
  cost: Argon2Cost | undefined;
  save: (fresh: string) => Promise<unknown>;
  logger: Logger;
  facts: Record<string, unknown>;
}) {
  const { password, stored, cost, save, logger, facts } = options;
  if (!needsRehash(stored, cost)) return stored;
  try {
    const fresh = await hashPassword(password, cost);
    await save(fresh);
    return fresh;
  } catch (error) {
    logger.error("password hash not upgraded", { ...facts, error: String(error) });
    return stored;
  }
}
