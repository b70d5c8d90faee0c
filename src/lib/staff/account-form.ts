import type { AdviserScope, StaffRole } from "../../../common/staff/staff.ts";
import { StaffRole as StaffRoleSchema } from "../../../common/staff/staff.ts";

const LEVELS = [100, 200, 300, 400, 500] as const;

/**
 * Reads the account form (checkbox lists of roles, departments and levels) into the API's shape.
 * An adviser advises every chosen level in every chosen department.
 */
export function readAccountForm(form: FormData) {
  const roles = form
    .getAll("roles")
    .map(String)
    .filter((role): role is StaffRole => StaffRoleSchema.safeParse(role).success);
  const departmentIds = form.getAll("departments").map(Number).filter(Number.isInteger);
  const levels = form
    .getAll("levels")
    .map(Number)
    .filter((level) => (LEVELS as readonly number[]).includes(level));
  const advises: AdviserScope[] = roles.includes("adviser")
    ? departmentIds.flatMap((department_id) => levels.map((level) => ({ department_id, level })))
    : [];
  return {
    name: String(form.get("name") ?? ""),
    email: String(form.get("email") ?? ""),
    roles,
    advises,
  };
}

/** The same form when editing: the e-mail (the sign-in name) is not changed. */
export function readAccountChange(form: FormData) {
  const { name, roles, advises } = readAccountForm(form);
  return { name, roles, advises };
}

export const ADVISER_LEVELS = LEVELS;
