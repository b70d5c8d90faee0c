import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const playwright = fileURLToPath(import.meta.resolve("@playwright/test/cli"));
const root = fileURLToPath(new URL("..", import.meta.url));

/** Every journey a run would take, as "[project] › file › title", without starting a portal. */
async function listed(lane?: "students" | "staff") {
  const env = { ...process.env, E2E_LANE: lane ?? "" };
  const { stdout } = await run(process.execPath, [playwright, "test", "--list"], {
    cwd: root,
    env,
  });
  const journeys = stdout
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("["))
    // The line number moves with every edit; the journey is its project, file and title.
    .map((line) => line.replace(/:\d+:\d+ › /, " › "));
  return new Set(journeys);
}

// Decision 171: the two lanes together run every journey, each once.
describe("the journeys' two lanes", { timeout: 60_000 }, () => {
  it("take every journey of a whole run between them, none twice", async () => {
    const [all, students, staff] = await Promise.all([
      listed(),
      listed("students"),
      listed("staff"),
    ]);
    expect(all.size).toBeGreaterThan(100);
    expect([...students].filter((journey) => staff.has(journey))).toEqual([]);
    expect(new Set([...students, ...staff])).toEqual(all);
  });

  it("refuses a lane that does not exist, and runs nothing", async () => {
    await expect(listed("teachers" as "staff")).rejects.toThrow(
      /E2E_LANE is "students", "staff" or unset/,
    );
  });
});
