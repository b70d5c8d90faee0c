import { parseArgs } from "node:util";
import { parseCollegeSize } from "../load/args.ts";

/** What `node scripts/capacity.ts` was asked to do. */
export type CapacityArgs = {
  /** Seconds each row is measured for, after a 2 s warm-up. */
  duration: number;
  connections: number;
  /** The scenarios to measure, by name; undefined: every one. */
  only?: string[];
  database: "pglite" | "postgres";
  /** Where the Markdown table goes; undefined: docs/measurements/<date>-capacity-<database>[-college-<N>].md. */
  out?: string;
  /** Students with their history added to the demo college before the run (0: the demo's alone). */
  collegeSize: number;
  help: boolean;
};

export const CAPACITY_USAGE = `Usage: node scripts/capacity.ts [options]   (npm run bench:capacity -- [options])

How many requests a second the portal answers on this machine, page by page, each beside a bare
Node http hello-world measured in the same run. The portal is started as npm start runs it, on a
fresh database: PostgreSQL when DATABASE_URL is set (a database made for the run and dropped
after it), else PGlite in a temporary folder.

  --duration S          seconds per row, after a 2 s warm-up (default 10)
  --connections N       autocannon's connections (default 20)
  --only LIST           only these rows, e.g. api-read,dashboard (default: all)
  --database NAME       pglite or postgres (default: postgres when DATABASE_URL is set)
  --out PATH            where to write the Markdown table
                        (default docs/measurements/<date>-capacity-<database>[-college-<N>].md)
  --college-size N      before the sign-in accounts are made, add N students to the demo college,
                        spread over its programmes and levels 100–300, each with their history
                        since they entered (school-fee payments with their events, some abandoned
                        or failed, a few refunded; course registrations, approvals and published
                        results; hostel invoices; the last day's sign-ins), then ANALYZE. The
                        demo student is still the one measured (default: off, the demo college
                        alone)
  --help                show this text`;

const positiveNumber = (name: string, value: string) => {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0)
    throw new Error(`--${name} must be a number > 0, got "${value}"`);
  return number;
};

/** Parses the command line; throws with a readable message on a bad value. */
export function parseCapacityArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = {},
): CapacityArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      duration: { type: "string", default: "10" },
      connections: { type: "string", default: "20" },
      only: { type: "string" },
      database: { type: "string" },
      out: { type: "string" },
      "college-size": { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  const database = values.database ?? (env.DATABASE_URL ? "postgres" : "pglite");
  if (database !== "pglite" && database !== "postgres")
    throw new Error(`--database is pglite or postgres, got "${database}"`);
  const connections = positiveNumber("connections", values.connections);
  if (!Number.isInteger(connections))
    throw new Error(`--connections must be a whole number, got "${values.connections}"`);
  return {
    duration: positiveNumber("duration", values.duration),
    connections,
    only: values.only?.split(",").map((name) => name.trim()),
    database,
    out: values.out,
    collegeSize: parseCollegeSize(values["college-size"]),
    help: values.help,
  };
}
