import {
  describeRoleTable,
  useRoleTableHarness,
  type RoleRow,
} from "../../staff/role-table.test-kit.ts";

const harness = useRoleTableHarness();
const current = () => harness().currentSessionId;

// Each call is harmless when allowed: an empty body or file answers 400, a missing fee 404.
const endpoints: RoleRow[] = [
  { method: "GET", path: () => "/staff/fees", roles: ["bursar", "admin"] },
  { method: "GET", path: () => "/staff/fees/export", roles: ["bursar", "admin"] },
  { method: "POST", path: () => "/staff/fees", roles: ["bursar"], json: {} },
  { method: "PATCH", path: () => "/staff/fees/999999", roles: ["bursar"], json: {} },
  { method: "POST", path: () => "/staff/fees/import", roles: ["bursar"], form: true },
  { method: "GET", path: () => "/staff/fees/999999/split", roles: ["bursar", "admin"] },
  { method: "PUT", path: () => "/staff/fees/999999/split", roles: ["bursar"], json: {} },
  {
    method: "PATCH",
    path: () => `/staff/sessions/${current()}/late-fees`,
    roles: ["bursar"],
    json: {},
  },
];

describeRoleTable("roles on the fee schedule endpoints", harness, endpoints, [200, 400, 404]);
