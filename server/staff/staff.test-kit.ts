import { eq } from "drizzle-orm";
import { staff } from "../db/schema.ts";
import { hashPassword } from "../auth/password.ts";
import { readOutbox } from "../mail/outbox.ts";
import { TEST_PASSWORD_COST, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import type { StaffRole } from "../../common/staff/staff.ts";
import { replaceAdviserScopes } from "./accounts.ts";
import { currentCode, newTotpSecret } from "./totp.ts";

let sequence = 0;

/** A staff account straight in the database (roles, optional TOTP and adviser scope). */
export async function createStaff(
  api: ApiHarness,
  options: {
    roles: StaffRole[];
    password?: string;
    totp?: boolean;
    active?: boolean;
    advises?: { department_id: number; level: number }[];
  },
) {
  sequence += 1;
  const [row] = await api.db
    .insert(staff)
    .values({
      name: `Staff ${sequence}`,
      email: `staff-${sequence}-${options.roles.join("-")}@college.test`,
      roles: options.roles,
      active: options.active ?? true,
      passwordHash: await hashPassword(options.password ?? "staff-password", TEST_PASSWORD_COST),
      totpSecret: options.totp ? newTotpSecret() : null,
    })
    .returning();
  if (options.advises) await replaceAdviserScopes(api.db, row!.id, options.advises);
  return row!;
}

/** Plays the authenticator app: the code for the test clock's current time. */
export async function codeFor(api: ApiHarness, staffId: number) {
  const [row] = await api.db.select().from(staff).where(eq(staff.id, staffId));
  return currentCode(row!.totpSecret ?? row!.totpPendingSecret!, api.clock.now());
}

/** Signs in with e-mail and password (and the TOTP code when enrolled); returns the token. */
export async function staffSignIn(
  api: ApiHarness,
  member: { id: number; email: string },
  password = "staff-password",
) {
  const response = await api.request("/staff/login", {
    method: "POST",
    json: { email: member.email, password },
    clientAddress: "192.0.2.10",
  });
  if (response.status !== 200) throw new Error(`staff sign-in failed: ${response.status}`);
  const body = (await response.json()) as { data: { tokens: { access: string }; stage: string } };
  const token = body.data.tokens.access;
  if (body.data.stage === "code") {
    const answer = await api.request("/staff/login/code", {
      method: "POST",
      token,
      json: { code: await codeFor(api, member.id) },
    });
    if (answer.status !== 200) throw new Error(`staff code refused: ${answer.status}`);
  }
  return token;
}

/** The newest password link sent to `email`, from the harness's outbox once the queue has sent what is due. */
export async function latestStaffLink(api: ApiHarness, email: string) {
  await api.deliverMail();
  const mail = (await readOutbox(api.outboxDir)).find((message) => message.to === email);
  return /\/staff\/password\/([A-Za-z0-9_-]{43})/.exec(mail?.text ?? "")?.[1] ?? null;
}
