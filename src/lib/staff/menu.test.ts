import { describe, expect, it } from "vitest";
import { mayOpen, menuFor } from "./menu.ts";

describe("the staff menu by role", () => {
  it.each([
    [["support"], ["/staff", "/staff/complaints", "/staff/audit", "/staff/totp"]],
    [
      ["registry"],
      [
        "/staff",
        "/staff/students",
        "/staff/registrations",
        "/staff/structure",
        "/staff/sessions",
        "/staff/course-lecturers",
        "/staff/sms/reminders",
        "/staff/audit",
        "/staff/totp",
      ],
    ],
    [
      ["lecturer"],
      ["/staff", "/staff/teaching", "/staff/results/amendments", "/staff/audit", "/staff/totp"],
    ],
    [["adviser"], ["/staff", "/staff/registrations", "/staff/audit", "/staff/totp"]],
    [
      ["admin"],
      [
        "/staff",
        "/staff/accounts",
        "/staff/structure",
        "/staff/sessions",
        "/staff/fees",
        "/staff/refunds",
        "/staff/sms",
        "/staff/sms/reminders",
        "/staff/announcements",
        "/staff/library",
        "/staff/audit",
        "/staff/totp",
      ],
    ],
    [
      ["bursar"],
      [
        "/staff",
        "/staff/fees",
        "/staff/payments",
        "/staff/reconciliation",
        "/staff/refunds",
        "/staff/sms",
        "/staff/sms/reminders",
        "/staff/audit",
        "/staff/totp",
      ],
    ],
    [
      ["adviser", "registry"],
      [
        "/staff",
        "/staff/students",
        "/staff/registrations",
        "/staff/structure",
        "/staff/sessions",
        "/staff/course-lecturers",
        "/staff/sms/reminders",
        "/staff/audit",
        "/staff/totp",
      ],
    ],
    [
      ["hod"],
      [
        "/staff",
        "/staff/results/review",
        "/staff/results/amendments",
        "/staff/audit",
        "/staff/totp",
      ],
    ],
    [
      ["exams"],
      [
        "/staff",
        "/staff/results/overview",
        "/staff/results/computed",
        "/staff/results/grading",
        "/staff/transcripts",
        "/staff/results/amendments",
        "/staff/audit",
        "/staff/totp",
      ],
    ],
  ] as const)("%j sees %j", (roles, hrefs) => {
    expect(menuFor(roles).map((item) => item.href)).toEqual(hrefs);
  });
});

describe("which staff pages a role may open", () => {
  it.each([
    ["/staff/accounts", ["registry"], false],
    ["/staff/accounts/", ["admin"], true],
    ["/staff/audit", ["registry"], true],
    ["/staff/audit", ["support"], true],
    ["/staff", ["support"], true],
    ["/staff/totp", ["adviser"], true],
    ["/staff/registrations", ["adviser"], true],
    ["/staff/registrations/12", ["registry"], true],
    ["/staff/registrations/12", ["admin"], false],
    ["/staff/registrations", ["bursar"], false],
    ["/staff/fees", ["bursar"], true],
    ["/staff/transcripts", ["exams"], true],
    ["/staff/transcripts", ["bursar"], false],
    ["/staff/fees", ["registry"], false],
    ["/staff/students/import", ["registry"], true],
    ["/staff/students/42", ["admin"], false],
    ["/staff/students", ["support"], false],
    ["/staff/structure/courses", ["registry"], true],
    ["/staff/structure/courses", ["adviser"], false],
    ["/staff/sessions/promotion", ["admin"], true],
    ["/staff/sessions/promotion", ["bursar"], false],
    ["/staff/complaints/CMP-ABCDEF", ["support"], true],
    ["/staff/complaints", ["admin"], false],
    ["/staff/announcements", ["admin"], true],
    ["/staff/announcements", ["support"], false],
    ["/staff/library", ["registry"], false],
    ["/staff/payments/FEES-1", ["bursar"], true],
    ["/staff/payments", ["support"], false],
    ["/staff/reconciliation/export.csv", ["support"], false],
    ["/staff/refunds", ["registry"], false],
    ["/staff/refunds", ["admin"], true],
    ["/staff/sms", ["bursar"], true],
    ["/staff/sms", ["registry"], false],
    // The reminders are the registry's too, though the costs above them are not.
    ["/staff/sms/reminders", ["registry"], true],
    ["/staff/sms/reminders", ["bursar"], true],
    ["/staff/sms/reminders", ["adviser"], false],
    ["/staff/results/review/12", ["hod"], true],
    ["/staff/results/review", ["exams"], false],
    ["/staff/results/computed", ["exams"], true],
    ["/staff/results/computed", ["hod"], false],
    ["/staff/results/overview", ["lecturer"], false],
    ["/staff/results/amendments", ["lecturer"], true],
    ["/staff/results/amendments", ["bursar"], false],
    ["/staff/teaching/12", ["lecturer"], true],
    ["/staff/teaching/12/scores.csv", ["registry"], false],
    ["/staff/course-lecturers", ["registry"], true],
    ["/staff/course-lecturers", ["lecturer"], false],
  ] as const)("%s for %j: %s", (path, roles, allowed) => {
    expect(mayOpen(path, roles)).toBe(allowed);
  });
});
