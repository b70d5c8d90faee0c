import type { StaffRole } from "../../common/staff/staff.ts";
import { describeRoleTable, useRoleTableHarness, type RoleRow } from "./role-table.test-kit.ts";

const harness = useRoleTableHarness();
const current = () => harness().currentSessionId;

// Each call is harmless when allowed: an empty body (400), a no-op, or a refusal the rules give.
const endpoints: RoleRow[] = [
  { method: "GET", path: () => "/staff/departments", roles: "any" },
  { method: "GET", path: () => "/staff/programmes", roles: "any" },
  { method: "GET", path: () => "/staff/modes", roles: "any" },
  { method: "POST", path: () => "/staff/modes/study", roles: ["registry"], json: {} },
  { method: "PATCH", path: () => "/staff/modes/entry/1", roles: ["registry"], json: {} },
  ...["faculties", "courses", "course-mappings"].map((what) => ({
    method: "GET",
    path: () => `/staff/${what}`,
    roles: ["registry", "admin"] as StaffRole[],
  })),
  ...["faculties", "departments", "programmes", "courses", "course-mappings"].flatMap((what) => [
    { method: "POST", path: () => `/staff/${what}`, roles: ["registry"] as StaffRole[], json: {} },
    {
      method: "POST",
      path: () => `/staff/${what}/import`,
      roles: ["registry"] as StaffRole[],
      form: true,
    },
  ]),
  ...["faculties", "departments", "programmes", "courses"].map((what) => ({
    method: "PATCH",
    path: () => `/staff/${what}/1`,
    roles: ["registry"] as StaffRole[],
    json: {},
  })),
  { method: "GET", path: () => "/staff/sessions", roles: ["registry", "admin"] },
  { method: "POST", path: () => "/staff/sessions", roles: ["registry"], json: {} },
  { method: "POST", path: () => `/staff/sessions/${current()}/current`, roles: ["registry"] },
  {
    method: "PATCH",
    path: () => `/staff/sessions/${current()}/registration`,
    roles: ["registry"],
    json: {},
  },
  {
    method: "GET",
    path: () => `/staff/sessions/${current()}/promotion`,
    roles: ["registry", "admin"],
  },
  {
    method: "POST",
    path: () => `/staff/sessions/${current()}/promotion`,
    roles: ["registry"],
    json: {},
  },
  {
    method: "POST",
    path: () => `/staff/sessions/${current()}/promotion/check`,
    roles: ["registry"],
    json: {},
  },
  { method: "GET", path: () => `/staff/sessions/${current()}/promotion/undo`, roles: ["registry"] },
  {
    method: "POST",
    path: () => `/staff/sessions/${current()}/promotion/undo`,
    roles: ["registry"],
  },
];

describeRoleTable(
  "roles on the academic structure and sessions endpoints",
  harness,
  endpoints,
  [200, 400, 409],
);
