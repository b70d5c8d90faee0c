import { expect, it } from "vitest";
import type { StaffRole } from "../../common/staff/staff.ts";
import {
  describeRoleTable,
  EVERY_ROLE,
  useRoleTableHarness,
  type RoleRow,
} from "./role-table.test-kit.ts";

const harness = useRoleTableHarness();
const row = (method: string, path: string, roles: StaffRole[], json?: unknown): RoleRow => ({
  method,
  path: () => path,
  roles,
  json,
});

// Bodies and ids that cannot succeed: an allowed role gets 200, 400 or 404, and nothing changes.
describeRoleTable(
  "roles on the help desk and content endpoints",
  harness,
  [
    row("GET", "/staff/complaints", ["support"]),
    row("GET", "/staff/complaints/CMP-ABCDEF", ["support"]),
    row("POST", "/staff/complaints/CMP-ABCDEF/replies", ["support"], {}),
    row("POST", "/staff/complaints/CMP-ABCDEF/close", ["support"]),
    row("POST", "/staff/complaints/CMP-ABCDEF/reopen", ["support"]),
    row("GET", "/staff/announcements", ["admin"]),
    row("POST", "/staff/announcements", ["admin"], {}),
    row("PUT", "/staff/announcements/99999", ["admin"], {}),
    row("DELETE", "/staff/announcements/99999", ["admin"]),
    row("GET", "/staff/library", ["admin"]),
    row("POST", "/staff/library", ["admin"], {}),
    row("PATCH", "/staff/library/99999", ["admin"], {}),
  ],
  [200, 400, 404],
);

it("GET /complaint/mine: a student only; staff sessions and no session get 401", async () => {
  const { api, tokens } = harness();
  for (const who of [...EVERY_ROLE, "student", "nobody"]) {
    const response = await api.request("/complaint/mine", { token: tokens.get(who) });
    expect(response.status, who).toBe(who === "student" ? 200 : 401);
  }
});
