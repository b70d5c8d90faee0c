import type { StaffRole } from "../../../common/staff/staff.ts";

export type StaffMenuItem = { href: string; label: string; roles: readonly StaffRole[] | "all" };

/** The staff menu; each item shows only to the roles whose work it is. */
export const STAFF_MENU: readonly StaffMenuItem[] = [
  { href: "/staff", label: "Home", roles: "all" },
  { href: "/staff/accounts", label: "Staff accounts", roles: ["admin"] },
  { href: "/staff/students", label: "Students", roles: ["registry"] },
  { href: "/staff/registrations", label: "Course registrations", roles: ["adviser", "registry"] },
  { href: "/staff/structure", label: "Academic structure", roles: ["registry", "admin"] },
  { href: "/staff/sessions", label: "Sessions", roles: ["registry", "admin"] },
  { href: "/staff/course-lecturers", label: "Course lecturers", roles: ["registry"] },
  { href: "/staff/teaching", label: "My courses", roles: ["lecturer"] },
  { href: "/staff/fees", label: "Fee schedule", roles: ["bursar", "admin"] },
  { href: "/staff/payments", label: "Payments", roles: ["bursar"] },
  { href: "/staff/reconciliation", label: "Reconciliation", roles: ["bursar"] },
  // Administrators approve large refunds as a second approver (decision 151).
  { href: "/staff/refunds", label: "Refunds", roles: ["bursar", "admin"] },
  // What the SMS provider charges for codes, receipts and registration news (decision 200).
  { href: "/staff/sms", label: "Text messages", roles: ["bursar", "admin"] },
  // Deadline reminders by SMS: the bursary's for fees, the registry's for registration (decision 201).
  { href: "/staff/sms/reminders", label: "SMS reminders", roles: ["bursar", "registry", "admin"] },
  { href: "/staff/complaints", label: "Complaints", roles: ["support"] },
  { href: "/staff/results/review", label: "Results to review", roles: ["hod"] },
  { href: "/staff/results/overview", label: "Results overview", roles: ["exams"] },
  { href: "/staff/results/computed", label: "Semester results", roles: ["exams"] },
  { href: "/staff/results/grading", label: "Grading scheme", roles: ["exams"] },
  { href: "/staff/transcripts", label: "Transcripts", roles: ["exams"] },
  { href: "/staff/results/amendments", label: "Amendments", roles: ["lecturer", "hod", "exams"] },
  { href: "/staff/announcements", label: "Announcements", roles: ["admin"] },
  { href: "/staff/library", label: "Library", roles: ["admin"] },
  { href: "/staff/audit", label: "Audit log", roles: "all" },
  { href: "/staff/totp", label: "Authenticator app", roles: "all" },
];

export function menuFor(roles: readonly StaffRole[]) {
  return STAFF_MENU.filter(
    (item) => item.roles === "all" || item.roles.some((role) => roles.includes(role)),
  );
}

/**
 * Whether the roles may open a staff page: pages in the menu carry its roles; others are open to
 * all staff. The longest item that holds the page decides, so a page under /staff/results/review
 * is the head of department's even when /staff/results itself is another role's.
 */
export function mayOpen(pathname: string, roles: readonly StaffRole[]) {
  const path = pathname.replace(/\/$/, "") || "/";
  const item = STAFF_MENU.filter(
    (entry) =>
      entry.href !== "/staff" && (path === entry.href || path.startsWith(`${entry.href}/`)),
  ).sort((a, b) => b.href.length - a.href.length)[0];
  return !item || item.roles === "all" || item.roles.some((role) => roles.includes(role));
}
