import type { StaffRole } from "../../common/staff/staff.ts";
import {
  describeRoleTable,
  useRoleTableHarness,
  type RoleRow,
} from "../staff/role-table.test-kit.ts";

const harness = useRoleTableHarness();
const row = (method: string, path: string, roles: StaffRole[], json?: unknown): RoleRow => ({
  method,
  path: () => path,
  roles,
  json,
});

// Bodies and ids that cannot succeed: an allowed role gets 200, 400 or 404, and nothing changes.
describeRoleTable(
  "roles on transcripts and the transcript fee",
  harness,
  [
    row("GET", "/staff/transcripts", ["exams"]),
    row("POST", "/staff/transcripts/99999/release", ["exams"]),
    row("POST", "/staff/fees/other", ["bursar"], {}),
  ],
  [200, 400, 404],
);
