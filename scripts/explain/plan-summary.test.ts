import { describe, expect, it } from "vitest";
import { describeSeqScans, summarisePlan, type ExplainJson } from "./plan-summary.ts";

// The shape PostgreSQL 15 answers EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) with, cut to the fields read.
const refundsOfStudent: ExplainJson = [
  {
    Plan: {
      "Node Type": "Hash Join",
      "Actual Rows": 1,
      "Actual Loops": 1,
      "Shared Hit Blocks": 9,
      "Shared Read Blocks": 2,
      Plans: [
        { "Node Type": "Seq Scan", "Relation Name": "refunds", "Actual Rows": 240 },
        {
          "Node Type": "Hash",
          Plans: [
            {
              "Node Type": "Index Scan",
              "Relation Name": "payments",
              "Index Name": "payments_student_id_index",
            },
          ],
        },
      ],
    },
    "Planning Time": 0.2,
    "Execution Time": 0.31,
  },
];

describe("summarisePlan", () => {
  it("lists each node once, outermost first, with its table and index", () => {
    const summary = summarisePlan(refundsOfStudent, new Map([["refunds", 240]]));
    expect(summary).toEqual({
      nodes: [
        "Hash Join",
        "Seq Scan on refunds",
        "Hash",
        "Index Scan on payments (payments_student_id_index)",
      ],
      seqScans: [{ table: "refunds", tableRows: 240 }],
      bigSeqScans: [],
      executionMs: 0.31,
      planningMs: 0.2,
      rows: 1,
      sharedHit: 9,
      sharedRead: 2,
    });
  });

  it("calls a scan of a table of more than 1,000 rows big, and 1,000 itself not", () => {
    expect(summarisePlan(refundsOfStudent, new Map([["refunds", 1_001]])).bigSeqScans).toEqual([
      "refunds",
    ]);
    expect(summarisePlan(refundsOfStudent, new Map([["refunds", 1_000]])).bigSeqScans).toEqual([]);
  });

  it("counts a table whose size it was not told as big, so none is passed over", () => {
    const summary = summarisePlan(refundsOfStudent, new Map());
    expect(summary.bigSeqScans).toEqual(["refunds"]);
    expect(describeSeqScans(summary)).toBe("refunds (size unknown rows)");
  });

  it("names a table scanned twice once, and a plan of index scans as scanning nothing", () => {
    const twice: ExplainJson = [
      {
        Plan: {
          "Node Type": "Append",
          Plans: [
            { "Node Type": "Seq Scan", "Relation Name": "payments" },
            { "Node Type": "Seq Scan", "Relation Name": "payments" },
          ],
        },
      },
    ];
    expect(summarisePlan(twice, new Map([["payments", 60_000]])).seqScans).toEqual([
      { table: "payments", tableRows: 60_000 },
    ]);
    const indexed: ExplainJson = [
      { Plan: { "Node Type": "Index Scan", "Relation Name": "payments", "Index Name": "p" } },
    ];
    expect(describeSeqScans(summarisePlan(indexed, new Map()))).toBe("none");
  });

  it("refuses an answer that holds no plan", () => {
    expect(() => summarisePlan([] as ExplainJson, new Map())).toThrow("EXPLAIN answered no plan");
  });
});
