import type { ExplainedStatement } from "./explaining-pool.ts";
import { describeSeqScans, summarisePlan, type PlanSummary } from "./plan-summary.ts";

/**
 * The prepared statements a student's journey must run (grep `.prepare(` in server/): if one no
 * longer does, the journey has stopped covering it and the run says so instead of passing.
 */
export const HOT_PREPARED = [
  "student_with_phone",
  "insert_session",
  "live_session",
  "live_announcements",
  "payments_of_student",
  "registration_record",
  "academic_sessions_newest_first",
  "quote_reads",
  "credited_options",
  "insert_pending_payment",
  "insert_payment_event",
  "payment_by_reference",
  "credit_open_payment",
  "hostel_invoices_of_student",
  "mapped_courses",
  "courses_with_ids",
  "lock_student",
  "registration_rules",
  "registration_and_published_record",
  "published_record_of_student",
  "revoke_session",
] as const;

export type StatementRow = {
  statement: ExplainedStatement;
  custom?: PlanSummary;
  /** A prepared statement's plan on its sixth run: what the portal runs from then on. */
  settled?: PlanSummary;
  generic?: PlanSummary;
};

export function summariseStatements(
  statements: Iterable<ExplainedStatement>,
  tableRows: ReadonlyMap<string, number>,
): StatementRow[] {
  return [...statements]
    .filter((statement) => statement.custom || statement.error)
    .map((statement) => ({
      statement,
      custom: statement.custom && summarisePlan(statement.custom, tableRows),
      settled: statement.settled && summarisePlan(statement.settled, tableRows),
      generic: statement.generic && summarisePlan(statement.generic, tableRows),
    }));
}

/**
 * Why the run fails, one line each; empty when every hot statement reads only what it needs in
 * the plans the portal runs: its first ones, and the one PostgreSQL settles on after five runs.
 */
export function problems(rows: readonly StatementRow[]): string[] {
  const found: string[] = [];
  for (const [index, row] of rows.entries()) {
    const label = `#${index + 1} ${labelOf(row.statement)}`;
    if (row.statement.error) found.push(`${label} could not be explained: ${row.statement.error}`);
    for (const table of row.custom?.bigSeqScans ?? [])
      found.push(`${label} reads all of ${table} (Seq Scan)`);
    for (const table of row.settled?.bigSeqScans ?? [])
      found.push(
        `${label}'s plan after five runs (${row.statement.settledOn}) reads all of ${table} (Seq Scan)`,
      );
  }
  const names = new Set(rows.map((row) => row.statement.name));
  for (const name of HOT_PREPARED)
    if (!names.has(name)) found.push(`${name} did not run in the journey: it is no longer covered`);
  return found;
}

/** The prepared statement's name, or the start of its SQL with its whitespace folded. */
export function labelOf(statement: Pick<ExplainedStatement, "name" | "text">): string {
  if (statement.name) return `\`${statement.name}\``;
  const text = statement.text.replace(/\s+/g, " ").trim();
  return `\`${text.length > 70 ? `${text.slice(0, 69)}…` : text}\``;
}

const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);

/** The table: one row per statement, in the order the journey first sent them. */
export function formatStatementTable(rows: readonly StatementRow[]): string {
  const lines = [
    "| # | statement | journey steps (runs) | plan | Seq Scan on | ms | rows | buffers hit / read | after five runs | generic plan |",
    "|---:|---|---|---|---|---:|---:|---:|---|---|",
  ];
  const nodesOf = (summary: PlanSummary) => summary.nodes.join(" → ");
  for (const [index, { statement, custom, settled, generic }] of rows.entries()) {
    const steps = `${statement.steps.join(", ")} (${statement.runs})`;
    if (!custom) {
      lines.push(
        `| ${index + 1} | ${labelOf(statement)} | ${steps} | not explained: ${statement.error} | | | | | | |`,
      );
      continue;
    }
    const unprepared = "(planned each time)";
    const settledText = !settled
      ? statement.name
        ? `not explained${statement.error ? `: ${statement.error}` : ""}`
        : unprepared
      : `${statement.settledOn} plan${nodesOf(settled) === nodesOf(custom) ? " (same nodes)" : `: ${nodesOf(settled)}; Seq Scan on ${describeSeqScans(settled)}`}` +
        `${settled.bigSeqScans.length > 0 ? " **big**" : ""}; ${ms(settled.executionMs)} ms`;
    const genericText = !generic
      ? statement.name
        ? "not explained"
        : unprepared
      : `${nodesOf(generic) === nodesOf(custom) ? "same nodes" : nodesOf(generic)}; ` +
        `Seq Scan on ${describeSeqScans(generic)}` +
        `${generic.bigSeqScans.length > 0 ? (statement.settledOn === "generic" ? " **big**" : " (big, but not the plan PostgreSQL runs)") : ""}; ` +
        `${ms(generic.executionMs)} ms`;
    lines.push(
      `| ${index + 1} | ${labelOf(statement)} | ${steps} | ${nodesOf(custom)} | ` +
        `${describeSeqScans(custom)}${custom.bigSeqScans.length > 0 ? " **big**" : ""} | ${ms(custom.executionMs)} | ` +
        `${custom.rows} | ${custom.sharedHit} / ${custom.sharedRead} | ${settledText} | ${genericText} |`,
    );
  }
  return lines.join("\n");
}

/** Every statement's SQL in full, numbered as in the table, so each row can be run again by hand. */
export function formatStatementTexts(rows: readonly StatementRow[]): string {
  return rows
    .map(
      ({ statement }, index) =>
        `${index + 1}. ${labelOf(statement)}, with ${JSON.stringify(statement.values)}:\n\n` +
        // As sent, line by line: a comment in it ends at its line's end.
        "   ```sql\n" +
        `${statement.text
          .trim()
          .split("\n")
          .map((line) => `   ${line.trim()}`)
          .join("\n")}\n` +
        "   ```",
    )
    .join("\n");
}
