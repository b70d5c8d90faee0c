import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { createMemoryLogger } from "../http/logger.ts";
import type { Mailer } from "../mail/mailer.ts";
import { openTestDatabase } from "../testing/test-database.test-kit.ts";
import { startJobQueue, type RunningJobQueue } from "./job-queue.ts";
import { SCHEDULED_JOB_NAMES, SCHEDULED_JOBS, type ScheduledJobName } from "./scheduled-work.ts";

const mailer: Mailer = { send: async () => {}, describe: () => "nowhere" };

// Two instances of the portal on one database, as a deployment of several would have.
let database: DatabaseHandle;
let first: RunningJobQueue;
let second: RunningJobQueue;
beforeAll(async () => {
  database = await openTestDatabase();
  first = await startJobQueue(database, { mailer, logger: createMemoryLogger() });
  second = await startJobQueue(database, { mailer, logger: createMemoryLogger() });
});
afterAll(async () => {
  await first.stop();
  await second.stop();
  await database.close();
});

/** Handlers that count their runs; `during` runs inside each run. */
function countingWork(during: (name: ScheduledJobName) => Promise<void> = async () => {}) {
  const runs = Object.fromEntries(SCHEDULED_JOB_NAMES.map((name) => [name, 0])) as Record<
    ScheduledJobName,
    number
  >;
  const handlers = Object.fromEntries(
    SCHEDULED_JOB_NAMES.map((name) => [
      name,
      async () => {
        runs[name] += 1;
        await during(name);
        return 0;
      },
    ]),
  ) as Record<ScheduledJobName, () => Promise<number>>;
  return { runs, handlers };
}

/** Jobs pg-boss holds for a queue, whoever sent them (a test, or the cron pass at start-up). */
async function jobsSent(name: string) {
  const result = await database.db.execute<{ count: string | number }>(
    sql`select count(*) as count from pgboss.job where name = ${name}`,
  );
  return Number(result.rows[0]!.count);
}

describe("scheduled work on the job queue", () => {
  it("registers every schedule, in UTC, when the queue starts", async () => {
    const schedules = await first.schedules();
    expect(
      schedules
        .map(({ name, cron, timezone }) => ({ name, cron, timezone }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    ).toEqual(
      SCHEDULED_JOB_NAMES.map((name) => ({
        name,
        cron: SCHEDULED_JOBS[name].cron,
        timezone: "UTC",
      })).sort((a, b) => a.name.localeCompare(b.name)),
    );
    expect(SCHEDULED_JOBS["reconcile-payments"].cron).toBe("* * * * *");
  });

  it("runs each job once, on one of two instances that both work the queue", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let running = 0;
    let mostAtOnce = 0;
    const work = countingWork(async (name) => {
      if (name !== "purge-rate-limits") return;
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await held;
      running -= 1;
    });
    await first.work({ pollingIntervalSeconds: 0.5, scheduled: work.handlers });
    await second.work({ pollingIntervalSeconds: 0.5, scheduled: work.handlers });

    await first.runNow("purge-rate-limits");
    await expect.poll(() => work.runs["purge-rate-limits"], { timeout: 10_000 }).toBe(1);
    // While it runs no second run is queued, from either instance: runs never overlap.
    expect(await first.runNow("purge-rate-limits")).toBe(false);
    expect(await second.runNow("purge-rate-limits")).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(mostAtOnce).toBe(1);
    release();

    // Every job sent for the queue was run exactly once between the two instances.
    await expect
      .poll(async () => (await jobsSent("purge-rate-limits")) === work.runs["purge-rate-limits"], {
        timeout: 10_000,
      })
      .toBe(true);
    await second.runNow("purge-staff-sessions");
    await expect
      .poll(() => work.runs["purge-staff-sessions"], { timeout: 10_000 })
      .toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(work.runs["purge-staff-sessions"]).toBe(await jobsSent("purge-staff-sessions"));
  });
});
