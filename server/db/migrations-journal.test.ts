import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import journal from "./migrations/meta/_journal.json" with { type: "json" };

// Drizzle's migrator applies a journal entry only when its `when` is later than the newest one
// the database has recorded: an entry stamped earlier than the one before it is skipped on every
// database that was already migrated past that one (decision 169).
describe("the migrations journal", () => {
  it("stamps every migration later than the one before it", () => {
    const late = journal.entries
      .filter((entry, i) => i > 0 && entry.when <= journal.entries[i - 1]!.when)
      .map((entry) => entry.tag);
    expect(late).toEqual([]);
  });

  it("numbers the migrations in order, one file each", () => {
    const files = readdirSync(new URL("./migrations", import.meta.url))
      .filter((name) => name.endsWith(".sql"))
      .sort();
    expect(journal.entries.map((entry) => `${entry.tag}.sql`)).toEqual(files);
    expect(journal.entries.map((entry) => Number(entry.tag.slice(0, 4)))).toEqual(
      journal.entries.map((_, i) => i),
    );
  });
});
