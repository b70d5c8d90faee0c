import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { academicSessions } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { StaffRole } from "../../common/staff/staff.ts";
import { createStaff, staffSignIn } from "./staff.test-kit.ts";

// Every role the portal knows, so each role table also proves the newest roles are kept out.
export const EVERY_ROLE: StaffRole[] = [...StaffRole.options];

/** One endpoint of a role table: who may call it; a body that is harmless when they do. */
export type RoleRow = {
  method: string;
  path: () => string;
  roles: StaffRole[] | "any";
  json?: unknown;
  form?: boolean;
};

/** A signed-in token (TOTP done) for one staff member of each role, and one for a student. */
export async function signInEveryRole(api: ApiHarness) {
  const tokens = new Map<string, string>();
  for (const role of EVERY_ROLE)
    tokens.set(role, await staffSignIn(api, await createStaff(api, { roles: [role], totp: true })));
  tokens.set("student", await api.signIn((await api.createStudent()).phone));
  return tokens;
}

type RoleTableState = { api: ApiHarness; tokens: Map<string, string>; currentSessionId: number };

/** A harness with every role signed in, opened before the file's tests and closed after them. */
export function useRoleTableHarness(): () => RoleTableState {
  const state = {} as RoleTableState;
  beforeAll(async () => {
    state.api = await createApiHarness();
    state.tokens = await signInEveryRole(state.api);
    const [current] = await state.api.db
      .select()
      .from(academicSessions)
      .where(eq(academicSessions.isCurrent, true));
    state.currentSessionId = current!.id;
  });
  afterAll(() => state.api.close());
  return () => state;
}

/**
 * Each endpoint × each role, a student's session and no session: no session 401, the wrong role or
 * a student 403, an allowed role one of `allowed` (what the harmless body gets).
 */
export function describeRoleTable(
  title: string,
  setup: () => Pick<RoleTableState, "api" | "tokens">,
  endpoints: RoleRow[],
  allowed: number[],
) {
  describe(title, () => {
    for (const endpoint of endpoints) {
      const who = endpoint.roles === "any" ? "every role" : endpoint.roles.join(", ");
      it(`${endpoint.method} ${endpoint.path().replace(/\/(\d+|undefined)(?=\/|$)/, "/:id")}: allowed for ${who}`, async () => {
        const { api, tokens } = setup();
        for (const caller of [...EVERY_ROLE, "student", "nobody"]) {
          const body = endpoint.form ? new FormData() : undefined;
          const response = await api.request(endpoint.path(), {
            method: endpoint.method,
            json: endpoint.json,
            body,
            token: tokens.get(caller),
          });
          const may =
            caller !== "student" &&
            caller !== "nobody" &&
            (endpoint.roles === "any" || endpoint.roles.includes(caller as StaffRole));
          const expected = caller === "nobody" ? [401] : may ? allowed : [403];
          expect(expected, `${caller} got ${response.status}`).toContain(response.status);
        }
      });
    }
  });
}
