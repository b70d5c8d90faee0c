import { asc, eq, inArray } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { adviserScopes, departments, staff } from "../db/schema.ts";
import type { AdviserScope, StaffAccount, StaffRole } from "../../common/staff/staff.ts";
import { signInStanding } from "../auth/sign-in-limits.ts";
import type { StaffRow } from "./staff-sessions.ts";

/** Staff rows as the pages see them, with each adviser's departments and levels. */
export async function staffAccounts(db: Database, rows: StaffRow[]): Promise<StaffAccount[]> {
  const ids = rows.map((row) => row.id);
  const scopes = ids.length
    ? await db
        .select({
          staffId: adviserScopes.staffId,
          departmentId: adviserScopes.departmentId,
          department: departments.name,
          level: adviserScopes.level,
        })
        .from(adviserScopes)
        .innerJoin(departments, eq(departments.id, adviserScopes.departmentId))
        .where(inArray(adviserScopes.staffId, ids))
        .orderBy(asc(departments.name), asc(adviserScopes.level))
    : [];
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    roles: row.roles as StaffRole[],
    active: row.active,
    totp_enrolled: row.totpSecret !== null,
    password_set: row.passwordHash !== null,
    advises: scopes
      .filter((scope) => scope.staffId === row.id)
      .map((scope) => ({
        department_id: scope.departmentId,
        department: scope.department,
        level: scope.level,
      })),
  }));
}

export async function staffAccount(db: Database, row: StaffRow): Promise<StaffAccount> {
  const [account] = await staffAccounts(db, [row]);
  return account!;
}

/** Every account, with how its sign-in stands (for the administrator's "clear the wait"). */
export async function listStaff(db: Database, now: Date) {
  const accounts = await staffAccounts(db, await db.select().from(staff).orderBy(asc(staff.name)));
  return Promise.all(
    accounts.map(async (account) => ({
      ...account,
      sign_in: await signInStanding(db, account.email, now, "staff-login"),
    })),
  );
}

/** Replaces an adviser's departments and levels; unknown departments are refused by the caller. */
export async function replaceAdviserScopes(
  tx: Transaction | Database,
  staffId: number,
  scopes: AdviserScope[],
) {
  await tx.delete(adviserScopes).where(eq(adviserScopes.staffId, staffId));
  const unique = new Map(scopes.map((scope) => [`${scope.department_id}:${scope.level}`, scope]));
  if (unique.size === 0) return;
  await tx.insert(adviserScopes).values(
    [...unique.values()].map((scope) => ({
      staffId,
      departmentId: scope.department_id,
      level: scope.level,
    })),
  );
}

/** The department ids among `ids` that do not exist. */
export async function unknownDepartments(db: Database, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const found = await db
    .select({ id: departments.id })
    .from(departments)
    .where(inArray(departments.id, ids));
  const known = new Set(found.map((row) => row.id));
  return [...new Set(ids)].filter((id) => !known.has(id));
}
