import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { Database, DatabaseHandle } from "../db/client.ts";
import { openTestDatabase } from "./test-database.test-kit.ts";

/**
 * One test database for a file of sandbox tests (PGlite, or PostgreSQL in the api-postgres run),
 * emptied of the Paystack and Remita sandboxes' rows before each test, with the ids counting from 1 again: each test
 * starts with a sandbox that has never seen a transaction.
 */
export function useSandboxDatabase(): { readonly db: Database } {
  let handle: DatabaseHandle | undefined;
  beforeAll(async () => {
    handle = await openTestDatabase();
  });
  beforeEach(async () => {
    await handle!.db.execute(
      sql`truncate paystack_sandbox_refunds, paystack_sandbox_transactions, paystack_sandbox_customers, remita_sandbox_invoices, remita_sandbox_faults restart identity`,
    );
  });
  afterAll(async () => {
    await handle?.close();
  });
  return {
    get db() {
      if (!handle)
        throw new Error("The sandbox's test database opens in beforeAll: use it inside a test.");
      return handle.db;
    },
  };
}
