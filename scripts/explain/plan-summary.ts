/**
 * What one `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)` says about a query, in a line: the plan's
 * nodes, whether a sequential scan reads a table too big to read whole on every request, how long
 * it ran and how many rows it gave.
 */

/** One node of PostgreSQL's JSON plan: the fields read here (it has many more). */
export type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
};

/** What `EXPLAIN (FORMAT JSON)` answers: one element per statement explained. */
export type ExplainJson = {
  Plan: PlanNode;
  "Planning Time"?: number;
  "Execution Time"?: number;
}[];

/**
 * Tables of more rows than this must not be read whole by a query a student's page runs: a
 * table that small fits in a few pages and is read as fast by a scan as by an index; a bigger one
 * grows with the college, and so would every request that scans it.
 */
export const BIG_TABLE_ROWS = 1_000;

export type PlanSummary = {
  /** Each node once, outermost first: "Index Scan on payments (payments_student_id_index)". */
  nodes: string[];
  /** Tables read by a sequential scan, with their rows as PostgreSQL counts them. */
  seqScans: { table: string; tableRows: number }[];
  /** Those of more than BIG_TABLE_ROWS rows: what fails the run. */
  bigSeqScans: string[];
  executionMs: number;
  planningMs: number;
  /** Rows the statement gave (or, for a write without RETURNING, changed). */
  rows: number;
  /** Pages found in PostgreSQL's buffers, and read from the operating system, by the whole plan. */
  sharedHit: number;
  sharedRead: number;
};

/**
 * Summarises one explained statement. `tableRows` holds each table's rows (pg_class.reltuples
 * after ANALYZE); a table missing from it counts as big, so an unknown table is never passed over.
 */
export function summarisePlan(
  explained: ExplainJson,
  tableRows: ReadonlyMap<string, number>,
  bigTableRows = BIG_TABLE_ROWS,
): PlanSummary {
  const top = explained[0];
  if (!top?.Plan) throw new Error("EXPLAIN answered no plan");
  const nodes: string[] = [];
  const seqScans: PlanSummary["seqScans"] = [];
  const visit = (node: PlanNode) => {
    const relation = node["Relation Name"];
    const index = node["Index Name"];
    const label = `${node["Node Type"]}${relation ? ` on ${relation}` : ""}${index ? ` (${index})` : ""}`;
    if (!nodes.includes(label)) nodes.push(label);
    if (node["Node Type"] === "Seq Scan" && relation) {
      const rows = tableRows.get(relation) ?? Number.POSITIVE_INFINITY;
      if (!seqScans.some((scan) => scan.table === relation))
        seqScans.push({ table: relation, tableRows: rows });
    }
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(top.Plan);
  return {
    nodes,
    seqScans,
    bigSeqScans: seqScans.filter((scan) => scan.tableRows > bigTableRows).map((scan) => scan.table),
    executionMs: top["Execution Time"] ?? 0,
    planningMs: top["Planning Time"] ?? 0,
    rows: (top.Plan["Actual Rows"] ?? 0) * (top.Plan["Actual Loops"] ?? 1),
    sharedHit: top.Plan["Shared Hit Blocks"] ?? 0,
    sharedRead: top.Plan["Shared Read Blocks"] ?? 0,
  };
}

/** "Seq Scan on announcements (4 rows)": a scan, with the size of what it read. */
export function describeSeqScans(summary: Pick<PlanSummary, "seqScans">): string {
  if (summary.seqScans.length === 0) return "none";
  return summary.seqScans
    .map(
      (scan) =>
        `${scan.table} (${Number.isFinite(scan.tableRows) ? Math.round(scan.tableRows).toLocaleString("en") : "size unknown"} rows)`,
    )
    .join(", ");
}
