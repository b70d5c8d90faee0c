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
   * A prepared statement's generic plan, the one PostgreSQL may settle on for every later run
   * (after five, when it costs no more than the custom plans): `plan_cache_mode =
   * force_generic_plan`, run with the same parameters.
   */
  generic?: ExplainJson;
  error?: string;
};

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
 * the rows it would change and changes nothing, and the statement then runs as it would have.
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
        const prepared = `explain_generic_${++generics}`;
        await run(enter);
        try {
          await run(`prepare ${prepared} as ${statement.text}`);
          try {
            await run("set local plan_cache_mode = force_generic_plan");
            // EXECUTE takes no bound parameters: its arguments are written as literals.
            const args = statement.values.map((value) =>
              value === null || value === undefined
                ? "null"
                : client.escapeLiteral(String(prepareValue(value))),
            );
            const generic = (await run(
              `explain (analyze, buffers, format json) execute ${prepared}${args.length > 0 ? `(${args.join(", ")})` : ""}`,
            )) as { rows: { "QUERY PLAN": ExplainJson }[] };
            statement.generic = generic.rows[0]!["QUERY PLAN"];
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
