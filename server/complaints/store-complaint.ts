import type { Database, Transaction } from "../db/client.ts";
import { complaints } from "../db/schema.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";

type NewComplaint = Omit<typeof complaints.$inferInsert, "id" | "ticket" | "status">;
type StoredComplaint = typeof complaints.$inferSelect;

/**
 * Stores a complaint; the database draws its random ticket number. Two complaints drawing the
 * same number is rare (one in 729 million per pair) but not impossible, so a clash draws again.
 * `alongside` runs in the transaction that stores it (to queue its mail), once per stored complaint.
 */
export async function storeWithTicket(
  db: Database,
  values: NewComplaint,
  alongside: (tx: Transaction, stored: StoredComplaint) => Promise<void> = async () => {},
  attempts = 3,
) {
  for (let attempt = 1; ; attempt++) {
    try {
      // Each draw is its own transaction: on PostgreSQL a clash aborts the transaction it is in.
      return await db.transaction(async (tx) => {
        const [stored] = await tx.insert(complaints).values(values).returning();
        await alongside(tx, stored!);
        return stored!;
      });
    } catch (error) {
      if (attempt >= attempts || !isUniqueViolation(error)) throw error;
    }
  }
}
