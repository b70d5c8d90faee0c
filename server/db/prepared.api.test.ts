import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../testing/test-database.test-kit.ts";
import type { DatabaseHandle } from "./client.ts";
import { preparedQuery } from "./prepared.ts";
import { faculties } from "./schema.ts";

// PGlite serves one connection (decision 134): a read outside an open transaction would wait for it.
const onPostgres = process.env.TEST_DATABASE === "postgres";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

const facultyNamed = preparedQuery((db) =>
  db
    .select({ id: faculties.id })
    .from(faculties)
    .where(eq(faculties.name, sql.placeholder("name")))
    .prepare("test_faculty_named"),
);
const addFaculty = preparedQuery((db) =>
  db
    .insert(faculties)
    .values({ name: sql.placeholder("name") })
    .returning({ id: faculties.id })
    .prepare("test_add_faculty"),
);

class RolledBack extends Error {}

describe("prepared queries on the database and inside its transactions (decision 137)", () => {
  it("inside a transaction, a prepared query sees what the transaction wrote; the database sees it once committed", async () => {
    const { db } = handle;
    await db.transaction(async (tx) => {
      await addFaculty(tx).execute({ name: "Faculty of Prepared Statements" });
      expect(
        await facultyNamed(tx).execute({ name: "Faculty of Prepared Statements" }),
      ).toHaveLength(1);
    });
    expect(await facultyNamed(db).execute({ name: "Faculty of Prepared Statements" })).toHaveLength(
      1,
    );
  });

  it.runIf(onPostgres)(
    "the database does not see a transaction's write before it commits",
    async () => {
      const { db } = handle;
      let seenOutside: unknown[] | undefined;
      await db.transaction(async (tx) => {
        await addFaculty(tx).execute({ name: "Faculty of Patience" });
        seenOutside = await facultyNamed(db).execute({ name: "Faculty of Patience" });
      });
      expect(seenOutside).toEqual([]);
      expect(await facultyNamed(db).execute({ name: "Faculty of Patience" })).toHaveLength(1);
    },
  );

  it("what a prepared query writes inside a transaction that rolls back is gone", async () => {
    const { db } = handle;
    const outcome = db.transaction(async (tx) => {
      await addFaculty(tx).execute({ name: "Faculty of Second Thoughts" });
      throw new RolledBack();
    });
    await expect(outcome).rejects.toBeInstanceOf(RolledBack);
    expect(await facultyNamed(db).execute({ name: "Faculty of Second Thoughts" })).toEqual([]);
  });

  it("a query first prepared inside a transaction still runs on the database after that transaction ended", async () => {
    const { db } = handle;
    const firstUsedInTransaction = preparedQuery((database) =>
      database
        .select({ id: faculties.id })
        .from(faculties)
        .where(eq(faculties.name, sql.placeholder("name")))
        .prepare("test_first_in_transaction"),
    );
    await db.transaction(async (tx) => {
      await firstUsedInTransaction(tx).execute({ name: "nobody" });
    });
    await addFaculty(db).execute({ name: "Faculty of Later Use" });
    // Run it enough times for the pool to hand out other connections than the transaction's.
    const found = await Promise.all(
      Array.from({ length: 12 }, () =>
        firstUsedInTransaction(db).execute({ name: "Faculty of Later Use" }),
      ),
    );
    expect(found.every((rows) => rows.length === 1)).toBe(true);
  });

  it.runIf(onPostgres)(
    "two transactions running the same prepared queries at once each see their own writes",
    async () => {
      const { db } = handle;
      const seen = await Promise.all(
        ["Faculty of Left", "Faculty of Right"].map((name) =>
          db.transaction(async (tx) => {
            await addFaculty(tx).execute({ name });
            const mine = await facultyNamed(tx).execute({ name });
            const theirs = await facultyNamed(tx).execute({
              name: name === "Faculty of Left" ? "Faculty of Right" : "Faculty of Left",
            });
            return { mine: mine.length, theirs: theirs.length };
          }),
        ),
      );
      expect(seen.map((each) => each.mine)).toEqual([1, 1]);
      // At least one read the other's name before that one committed, and found nothing.
      expect(seen.some((each) => each.theirs === 0)).toBe(true);
    },
  );
});
