import { describe, expect, it } from "vitest";
import { actionLabel, auditTime, changeList, fieldLabel, formatValue } from "./audit.ts";

describe("the audit log in words", () => {
  it.each([
    ["student.update", "Student record corrected"],
    ["faculty.create", "Faculty added"],
    ["course_mapping.update", "Course mapping changed"],
    ["registration.reopen", "Registration reopen"],
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
    expect(changeList({ before: { level: 100 }, after: { level: 200, phone: "08030000009" } })).toEqual([
      { label: "Level", before: "100", after: "200" },
      { label: "Phone", before: null, after: "08030000009" },
    ]);
    expect(changeList({ before: null, after: null })).toEqual([]);
  });

  it("shows times in Lagos time, whatever the server's zone: 23:30 UTC is 00:30 the next day", () => {
    expect(auditTime("2025-03-10T23:30:05.000Z")).toBe("11-03-2025, 12:30:05 am");
  });
});
