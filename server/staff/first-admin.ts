import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { staff } from "../db/schema.ts";
import { issueStaffPasswordToken } from "./password-links.ts";

/**
 * The first administrator of a new installation (production starts with an empty database and
 * no demo accounts). Creates the account, or finds it when the command is run again, and answers
 * the link where its owner sets a password. Refuses once any active admin exists: from then on
 * accounts are made on the staff pages, where they are audited.
 */
export async function createFirstAdmin(
  db: Database,
  who: { name: string; email: string },
  now: Date,
  publicOrigin: string,
): Promise<string> {
  const email = who.email.trim().toLowerCase();
  const admins = await db.select().from(staff).where(eq(staff.active, true));
  const other = admins.find((member) => member.roles.includes("admin") && member.email !== email);
  if (other)
    throw new Error(
      `An administrator already exists (${other.email}); ask them to create accounts at /staff/accounts.`,
    );
  const [existing] = await db.select().from(staff).where(eq(staff.email, email));
  const member =
    existing ??
    (
      await db
        .insert(staff)
        .values({ name: who.name.trim(), email, roles: ["admin"], createdAt: now, updatedAt: now })
        .returning()
    )[0]!;
  const token = await issueStaffPasswordToken(db, member, now);
  if (!token) throw new Error(`The account ${email} is deactivated; no link was made.`);
  return new URL(`/staff/password/${token}`, publicOrigin).toString();
}
