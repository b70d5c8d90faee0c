import { eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { academicSessions } from "../../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../../testing/api-harness.ts";
import { describeRoleTable, signInEveryRole, type RoleRow } from "../role-table.ts";

let api: ApiHarness;
let tokens: Map<string, string>;
let current: number;

beforeAll(async () => {
  api = await createApiHarness();
  tokens = await signInEveryRole(api);
  current = (await api.db.select().from(academicSessions).where(eq(academicSessions.isCurrent, true)))[0]!.id;
});
afterAll(() => api.close());

// Each call is harmless when allowed: an empty body or file answers 400, a missing fee 404.
const endpoints: RoleRow[] = [
  { method: "GET", path: () => "/staff/fees", roles: ["bursar", "admin"] },
  { method: "GET", path: () => "/staff/fees/export", roles: ["bursar", "admin"] },
  { method: "POST", path: () => "/staff/fees", roles: ["bursar"], json: {} },
  { method: "PATCH", path: () => "/staff/fees/999999", roles: ["bursar"], json: {} },
  { method: "POST", path: () => "/staff/fees/import", roles: ["bursar"], form: true },
  { method: "PATCH", path: () => `/staff/sessions/${current}/late-fees`, roles: ["bursar"], json: {} },
];

describeRoleTable("roles on the fee schedule endpoints", () => ({ api, tokens }), endpoints, [200, 400, 404]);
