import { describe, expect, it } from "vitest";
import type { ExplainedStatement } from "./explaining-pool.ts";
import type { ExplainJson } from "./plan-summary.ts";
import {
  formatStatementTable,
  HOT_PREPARED,
  labelOf,
  problems,
  summariseStatements,
} from "./report.ts";

const scan = (table: string): ExplainJson => [
  {
    Plan: { "Node Type": "Seq Scan", "Relation Name": table, "Actual Rows": 3 },
    "Execution Time": 1.5,
  },
];
const byIndex: ExplainJson = [
  {
    Plan: {
      "Node Type": "Index Scan",
      "Relation Name": "payments",
      "Index Name": "payments_student_id_index",
    },
    "Execution Time": 0.05,
  },
];

const statement = (fields: Partial<ExplainedStatement>): ExplainedStatement => ({
  name: null,
  text: "select 1",
  values: [],
  steps: ["dashboard"],
  runs: 1,
  ...fields,
});

/** Every hot prepared statement, each read through an index: a journey that passes. */
const covered = () =>
  HOT_PREPARED.map((name) =>
    statement({ name, custom: byIndex, settled: byIndex, settledOn: "custom", generic: byIndex }),
  );

const sizes = new Map([
  ["payments", 60_000],
  ["announcements", 4],
]);

describe("problems", () => {
  it("finds none when every hot statement ran and none reads a big table whole", () => {
    const rows = summariseStatements(
      [
        ...covered(),
        statement({ text: "select * from announcements", custom: scan("announcements") }),
      ],
      sizes,
    );
    expect(problems(rows)).toEqual([]);
  });

  it("names a statement whose own plan, or the plan it settles on after five runs, reads a big table whole", () => {
    const rows = summariseStatements(
      [
        statement({
          name: "payments_of_student",
          custom: scan("payments"),
          settled: scan("payments"),
          settledOn: "custom",
        }),
        statement({
          name: "scheduled_fee",
          custom: byIndex,
          settled: scan("payments"),
          settledOn: "generic",
          generic: scan("payments"),
        }),
        // A generic plan PostgreSQL does not use is not what the portal runs.
        statement({
          name: "credited_options",
          custom: byIndex,
          settled: byIndex,
          settledOn: "custom",
          generic: scan("payments"),
        }),
        ...covered().filter(
          (s) => !["payments_of_student", "scheduled_fee", "credited_options"].includes(s.name!),
        ),
      ],
      sizes,
    );
    expect(problems(rows)).toEqual([
      "#1 `payments_of_student` reads all of payments (Seq Scan)",
      "#1 `payments_of_student`'s plan after five runs (custom) reads all of payments (Seq Scan)",
      "#2 `scheduled_fee`'s plan after five runs (generic) reads all of payments (Seq Scan)",
    ]);
  });

  it("names a statement that could not be explained, and a hot one the journey no longer runs", () => {
    const rows = summariseStatements(
      [
        ...covered().filter((s) => s.name !== "live_session"),
        statement({ text: "update x set y = 1", error: 'relation "x" does not exist' }),
      ],
      sizes,
    );
    expect(problems(rows)).toEqual([
      `#${HOT_PREPARED.length} \`update x set y = 1\` could not be explained: relation "x" does not exist`,
      "live_session did not run in the journey: it is no longer covered",
    ]);
  });
});

describe("formatStatementTable", () => {
  it("gives each statement a row: steps, plan, scans, time, rows, and the later plans", () => {
    const rows = summariseStatements(
      [
        statement({
          name: "payments_of_student",
          custom: byIndex,
          settled: byIndex,
          settledOn: "custom",
          generic: scan("payments"),
          runs: 4,
          steps: ["dashboard", "payment page"],
        }),
        statement({ text: "select * from announcements", custom: scan("announcements") }),
      ],
      sizes,
    );
    expect(formatStatementTable(rows).split("\n").slice(2)).toEqual([
      "| 1 | `payments_of_student` | dashboard, payment page (4) | Index Scan on payments (payments_student_id_index) | none | 0.05 | 0 | 0 / 0 | custom plan (same nodes); 0.05 ms | Seq Scan on payments; Seq Scan on payments (60,000 rows) (big, but not the plan PostgreSQL runs); 1.50 ms |",
      "| 2 | `select * from announcements` | dashboard (1) | Seq Scan on announcements | announcements (4 rows) | 1.50 | 3 | 0 / 0 | (planned each time) | (planned each time) |",
    ]);
  });

  it("labels an unnamed statement by the start of its SQL, folded and cut", () => {
    expect(labelOf({ name: null, text: `select\n   a,   b from t where ${"x".repeat(80)}` })).toBe(
      `\`select a, b from t where ${"x".repeat(44)}…\``,
    );
  });
});
