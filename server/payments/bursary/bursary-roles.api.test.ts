import { expect, it } from "vitest";
import { createStaff } from "../../staff/staff.test-kit.ts";
import {
  describeRoleTable,
  useRoleTableHarness,
  type RoleRow,
} from "../../staff/role-table.test-kit.ts";

// Each bursary endpoint × each role, a student and no session: only the bursar gets in, and to a
// refund's second approval the administrator too (decision 151).
const harness = useRoleTableHarness();
const bursarOnly = (method: string, path: string, json?: unknown): RoleRow => ({
  method,
  path: () => path,
  roles: ["bursar"],
  json,
});
const secondApprover = (method: string, path: string, json?: unknown): RoleRow => ({
  method,
  path: () => path,
  roles: ["bursar", "admin"],
  json,
});

describeRoleTable(
  "roles on every bursary endpoint",
  harness,
  [
    bursarOnly("GET", "/staff/payments"),
    bursarOnly("GET", "/staff/payments/NOPE-1"),
    bursarOnly("GET", "/staff/reconciliation?from=2025-01-15&to=2025-01-15"),
    bursarOnly("GET", "/staff/reconciliation.csv?from=2025-01-15&to=2025-01-15"),
    bursarOnly("POST", "/staff/reconciliation/credit", { reference: "NOPE-1" }),
    bursarOnly("POST", "/staff/reconciliation/uncredit", { reference: "NOPE-1" }),
    bursarOnly("GET", "/staff/refunds"),
    bursarOnly("POST", "/staff/refunds/check", { reference: "NOPE-1", reason: "Paid twice" }),
    bursarOnly("POST", "/staff/refunds", { reference: "NOPE-1", reason: "Paid twice" }),
    secondApprover("GET", "/staff/refunds/awaiting"),
    secondApprover("GET", "/staff/refunds/999999"),
    secondApprover("POST", "/staff/refunds/999999/approve"),
    secondApprover("POST", "/staff/refunds/999999/decline", { reason: "Not a duplicate" }),
    bursarOnly("POST", "/staff/refunds/999999/paid-outside", { transfer_reference: "TRF-0001" }),
    bursarOnly("POST", "/staff/refunds/999999/not-paid-outside", { reason: "Wrong account" }),
  ],
  [200, 404],
);

it("a bursar who has not finished signing in with the authenticator is refused", async () => {
  const { api } = harness();
  const member = await createStaff(api, { roles: ["bursar"], totp: true });
  const response = await api.request("/staff/login", {
    method: "POST",
    json: { email: member.email, password: "staff-password" },
    clientAddress: "192.0.2.11",
  });
  const halfway = (await response.json()).data.tokens.access;
  expect((await api.request("/staff/payments", { token: halfway })).status).toBe(403);
});
