import { createRequire } from "node:module";
import type pg from "pg";
import type { ExplainJson } from "./plan-summary.ts";

// node-postgres's own conversion of a parameter to text (dates, arrays, JSON), so a value written
// into EXECUTE's arguments reads as the bound one would.
const { prepareValue } = createRequire(import.meta.url)("pg/lib/utils.js") as {
  prepareValue(value: unknown): unknown;
};

/** One distinct statement the portal sent, with its plans as they were when it first ran. */
export type ExplainedStatement = {
  /** The name it is prepared under (server/db/prepared.ts), or null for one planned each time. */
  name: string | null;
  text: string;
  /** The parameters it first ran with, which the plans are for. */
  values: unknown[];
  /** The journey's steps that sent it, and how many times in all. */
  steps: string[];
  runs: number;
  /** The plan PostgreSQL makes for these parameters. */
  custom?: ExplainJson;
  /**
   * A prepared statement's plan on its sixth run, as the portal runs it (`plan_cache_mode =
   * auto`): after five custom plans PostgreSQL keeps planning each run, or settles on the generic
   * plan when that costs no more; `settledOn` says which it did (pg_prepared_statements).
   */
  settled?: ExplainJson;
  settledOn?: "custom" | "generic";
  /** Its generic plan, used or not (`plan_cache_mode = force_generic_plan`). */
  generic?: ExplainJson;
  error?: string;
};

/** How many runs PostgreSQL plans a prepared statement for afresh before it weighs the generic plan. */
const CUSTOM_PLANS_FIRST = 5;

const EXPLAINABLE = /^\s*(select|with|insert|update|delete)\b/i;
const BEGINS = /^\s*(begin|start\s+transaction)\b/i;
// "rollback to savepoint" stays inside the transaction.
const ENDS = /^\s*(commit|end|rollback(?!\s+to\b))\b/i;

type QueryConfig = { text: string; name?: string; values?: unknown[] };
type Callback = (error: Error | null, result?: unknown) => void;

/**
 * Has every statement sent through `pool` explained, on the same connection and just before it
 * runs, the first time its text is seen: `EXPLAIN (ANALYZE, BUFFERS)` with its own parameters,
 * inside a savepoint (or a transaction of its own) that is rolled back, so a write is measured on
 * the rows it would change and changes nothing, and the statement then runs as it would have. A
 * prepared statement is also prepared under another name and run five times, then explained on
 * its sixth run (the plan PostgreSQL settles on) and under its generic plan.
 * `step` names what the journey is doing, for the report.
 */
export function explainEveryStatement(pool: pg.Pool, step: () => string) {
  const statements = new Map<string, ExplainedStatement>();
  let generics = 0;

  function wrap(client: pg.PoolClient) {
    const run = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    let inTransaction = false;

    async function explain(statement: ExplainedStatement) {
      const enter = inTransaction ? "savepoint explain_hot" : "begin";
      const leave = inTransaction ? "rollback to savepoint explain_hot" : "rollback";
      try {
        await run(enter);
        try {
          const custom = (await run(
            `explain (analyze, buffers, format json) ${statement.text}`,
            statement.values,
          )) as { rows: { "QUERY PLAN": ExplainJson }[] };
          statement.custom = custom.rows[0]!["QUERY PLAN"];
        } finally {
          await run(leave);
        }
        if (statement.name === null) return;
        const prepared = `explain_hot_${++generics}`;
        // EXECUTE takes no bound parameters: its arguments are written as literals.
        const args = statement.values.map((value) =>
          value === null || value === undefined
            ? "null"
            : client.escapeLiteral(String(prepareValue(value))),
        );
        const execute = `execute ${prepared}${args.length > 0 ? `(${args.join(", ")})` : ""}`;
        // Each run in a savepoint of its own, rolled back: a write is run six times, kept never.
        const runAlone = async <T>(statementText: string) => {
          await run("savepoint explain_run");
          try {
            return (await run(statementText)) as T;
          } finally {
            await run("rollback to savepoint explain_run");
          }
        };
        const explainExecute = async () =>
          (
            await runAlone<{ rows: { "QUERY PLAN": ExplainJson }[] }>(
              `explain (analyze, buffers, format json) ${execute}`,
            )
          ).rows[0]!["QUERY PLAN"];
        await run(enter);
        try {
          await run(`prepare ${prepared} as ${statement.text}`);
          try {
            for (let i = 0; i < CUSTOM_PLANS_FIRST; i++) await runAlone(execute);
            statement.settled = await explainExecute();
            const counted = (await run(
              `select generic_plans from pg_prepared_statements where name = '${prepared}'`,
            )) as { rows: { generic_plans: string | number }[] };
            statement.settledOn =
              Number(counted.rows[0]?.generic_plans ?? 0) > 0 ? "generic" : "custom";
            await run("set local plan_cache_mode = force_generic_plan");
            statement.generic = await explainExecute();
          } finally {
            await run(leave);
            await run(`deallocate ${prepared}`);
          }
        } catch (error) {
          await run(leave).catch(() => undefined);
          throw error;
        }
      } catch (error) {
        statement.error = (error as Error).message;
      }
    }

    async function query(config: string | QueryConfig, values?: unknown[]) {
      const text = typeof config === "string" ? config : config.text;
      const params = values ?? (typeof config === "string" ? undefined : config.values) ?? [];
      let statement = statements.get(text);
      if (statement) {
        statement.runs += 1;
        if (!statement.steps.includes(step())) statement.steps.push(step());
      } else {
        statement = {
          name: typeof config === "string" ? null : (config.name ?? null),
          text,
          values: params,
          steps: [step()],
          runs: 1,
        };
        statements.set(text, statement);
        if (EXPLAINABLE.test(text)) await explain(statement);
      }
      if (BEGINS.test(text)) inTransaction = true;
      if (ENDS.test(text)) inTransaction = false;
      return run(config, values);
    }

    // Promise-style callers (drizzle), and callback-style ones (the pool's own query()).
    (client as unknown as { query: unknown }).query = (
      config: string | QueryConfig,
      values?: unknown[] | Callback,
      callback?: Callback,
    ) => {
      const done = typeof values === "function" ? values : callback;
      const promise = query(config, typeof values === "function" ? undefined : values);
      if (!done) return promise;
      promise.then(
        (result) => done(null, result),
        (error: Error) => done(error),
      );
      return undefined;
    };
  }

  pool.on("connect", wrap);
  return { statements };
}
