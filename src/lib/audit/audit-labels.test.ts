import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  ACTION_LABELS,
  actionLabel,
  auditTime,
  changeList,
  fieldLabel,
  formatValue,
} from "./audit-labels.ts";

/** Every action code the API writes into the log: the `action: "…"` of its recordAudit calls. */
function actionsTheServerWrites() {
  const server = new URL("../../../server/", import.meta.url);
  const sources = readdirSync(server, { recursive: true, encoding: "utf8" }).filter(
    (name) => name.endsWith(".ts") && !name.endsWith(".test.ts"),
  );
  const actions = new Set<string>();
  for (const name of sources) {
    const text = readFileSync(new URL(name, server), "utf8");
    if (!text.includes("recordAudit")) continue;
    for (const match of text.matchAll(/action: "([a-z_-]+(?:\.[a-z_-]+)+)"/g))
      actions.add(match[1]!);
  }
  return [...actions].sort();
}

describe("the audit log in words", () => {
  it("has a label for every action the server writes, so no one reads a code", () => {
    const actions = actionsTheServerWrites();
    expect(actions.length).toBeGreaterThan(30);
    const spelledStructure =
      /^(faculty|department|programme|course|course_mapping)\.(create|update)$/;
    expect(
      actions.filter((action) => !ACTION_LABELS[action] && !spelledStructure.test(action)),
    ).toEqual([]);
  });

  it.each([
    ["student.update", "Student record corrected"],
    ["faculty.create", "Faculty added"],
    ["course_mapping.update", "Course mapping changed"],
    ["study_mode.create", "Study mode added"],
    ["entry_mode.update", "Entry mode changed"],
    ["registration.reopen", "Approved course registration reopened"],
    ["report.printed", "Report printed"],
  ])("action %s reads %j", (action, label) => {
    expect(actionLabel(action)).toBe(label);
  });

  it.each([
    ["matric_no", "Matric number"],
    ["amount_kobo", "Amount"],
    ["late_fees_from", "Late fees from"],
    ["some_new_field", "Some new field"],
  ])("field %s reads %j", (key, label) => {
    expect(fieldLabel(key)).toBe(label);
  });

  it.each([
    ["amount_kobo", 6_000_000, "₦60,000"],
    ["active", false, "No"],
    ["email", null, "(none)"],
    ["courses", ["BIO 111", "GSE 111"], "BIO 111, GSE 111"],
    ["promoted_ids", [1, 2, 3], "3 students"],
    ["stage", "code", "the authenticator code"],
    ["semester", 2, "Second"],
    ["advises", [{ department_id: 1, level: 100 }], "Department id 1, Level 100"],
  ])("value of %s %j reads %j", (key, value, text) => {
    expect(formatValue(key, value)).toBe(text);
  });

  it("lists changed fields before → after, and a new record's values alone", () => {
    expect(
      changeList({ before: { level: 100 }, after: { level: 200, phone: "08030000009" } }),
    ).toEqual([
      { label: "Level", before: "100", after: "200" },
      { label: "Phone", before: null, after: "08030000009" },
    ]);
    expect(changeList({ before: null, after: null })).toEqual([]);
  });

  it("shows times in Lagos time, whatever the server's zone: 23:30 UTC is 00:30 the next day", () => {
    expect(auditTime("2025-03-10T23:30:05.000Z")).toBe("11-03-2025, 12:30:05 am");
  });
});
