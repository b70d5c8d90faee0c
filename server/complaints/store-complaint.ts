import type { Database } from "../db/client.ts";
import { complaints } from "../db/schema.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";

type NewComplaint = Omit<typeof complaints.$inferInsert, "id" | "ticket" | "status">;

/**
 * Stores a complaint; the database draws its random ticket number. Two complaints drawing the
 * same number is rare (one in 729 million per pair) but not impossible, so a clash draws again.
 */
export async function storeWithTicket(db: Database, values: NewComplaint, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    try {
      const [stored] = await db.insert(complaints).values(values).returning();
      return stored!;
    } catch (error) {
      if (attempt >= attempts || !isUniqueViolation(error)) throw error;
    }
  }
}
