import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { RecordId } from "../../common/validation/lists.ts";
import type { ApiDeps } from "../deps.ts";
import type { Transaction } from "../db/client.ts";
import { staff } from "../db/schema.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { readJson, readParams } from "../http/validate.ts";
import {
  CreateStaffRequest,
  UpdateStaffRequest,
  type AdviserScope,
} from "../../common/staff/staff.ts";
import { listStaff, replaceAdviserScopes, staffAccount, unknownDepartments } from "./accounts.ts";
import { changedFields, recordAudit } from "../audit/audit.ts";
import { issueStaffPasswordToken, spendStaffPasswordLinks } from "./password-links.ts";
import { forgetFailedSignIns, signInStanding } from "../auth/sign-in-limits.ts";
import { forgetWrongCodes, wrongCodeCount } from "./wrong-codes.ts";
import { requireStaff } from "../auth/require-staff.ts";
import { staffPasswordMail } from "./staff-mail.ts";
import { endAllStaffSessions, type StaffRow } from "./staff-sessions.ts";

const StaffIdParam = z.object({ id: RecordId("There is no staff account with that id.") });

/** The administrator's work: create, invite, change roles, deactivate, reset an authenticator. */
export function staffAccountRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const app = new Hono<ApiEnv>();
  app.use("/staff/accounts", requireStaff(deps, { roles: ["admin"] }));
  app.use("/staff/accounts/*", requireStaff(deps, { roles: ["admin"] }));

  /** Inside the transaction that issues the token: the link is mailed exactly when it can work. */
  async function queuePasswordLink(tx: Transaction, member: StaffRow) {
    const token = await issueStaffPasswordToken(tx, member, now());
    if (!token) throw new ApiError(400, "That account is deactivated. Activate it first.");
    const link = new URL(`/staff/password/${token}`, deps.publicOrigin).toString();
    await deps.jobs.sendMail(tx, staffPasswordMail(member, link));
  }

  /**
   * An adviser with no department and level would see no student and approve nothing, while the
   * accounts list said "Course adviser": refused, naming what to choose (decision 164).
   */
  function refuseAdviserWithoutScope(roles: readonly string[], advises: readonly AdviserScope[]) {
    if (roles.includes("adviser") && advises.length === 0) {
      throw new ApiError(
        400,
        "A course adviser needs at least one department and one level to advise. Tick them under the adviser role, or remove the role.",
        {
          fields: { advises: "Choose at least one department and one level." },
        },
      );
    }
  }

  async function checkScopes(advises: AdviserScope[]) {
    const unknown = await unknownDepartments(
      db,
      advises.map((scope) => scope.department_id),
    );
    if (unknown.length)
      throw new ApiError(400, `There is no department with id ${unknown.join(", ")}.`, {
        fields: { advises: "Unknown department." },
      });
  }

  async function findMember(id: number) {
    const [member] = await db.select().from(staff).where(eq(staff.id, id)).limit(1);
    if (!member) throw new ApiError(404, "There is no staff account with that id.");
    return member;
  }

  app.get("/staff/accounts", async (c) => c.json({ data: await listStaff(db, now()) }));

  app.post("/staff/accounts", async (c) => {
    const request = await readJson(c, CreateStaffRequest);
    refuseAdviserWithoutScope(request.roles, request.advises);
    await checkScopes(request.advises);
    const admin = c.var.staff;
    const created = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(staff)
        .values({
          name: request.name,
          email: request.email,
          roles: request.roles,
          createdAt: now(),
          updatedAt: now(),
        })
        .onConflictDoNothing({ target: staff.email })
        .returning();
      if (!row) return null;
      await replaceAdviserScopes(tx, row.id, request.advises);
      const after = {
        name: row.name,
        email: row.email,
        roles: row.roles,
        advises: request.advises,
      };
      await recordAudit(
        tx,
        { staffId: admin.id, action: "staff.create", entity: "staff", entityId: row.id, after },
        now(),
      );
      await queuePasswordLink(tx, row);
      return row;
    });
    if (!created)
      throw new ApiError(409, "A staff account with that e-mail address already exists.", {
        fields: { email: "Already in use." },
      });
    return c.json(
      {
        status: "success",
        message: `Account created. An invitation is on its way to ${created.email}.`,
        data: await staffAccount(db, created),
      },
      201,
    );
  });

  app.patch("/staff/accounts/:id", async (c) => {
    const { id } = readParams(c, StaffIdParam);
    const change = await readJson(c, UpdateStaffRequest);
    const admin = c.var.staff;
    if (
      id === admin.id &&
      (change.active === false || (change.roles && !change.roles.includes("admin")))
    ) {
      throw new ApiError(
        400,
        "You cannot deactivate your own account or remove your own admin role; ask another administrator.",
      );
    }
    if (change.advises) await checkScopes(change.advises);
    const member = await findMember(id);
    const before = { ...(await staffAccount(db, member)) };
    // Only a change of roles or scope is held to it: an older account without one can still be renamed or deactivated.
    if (change.roles || change.advises)
      refuseAdviserWithoutScope(change.roles ?? before.roles, change.advises ?? before.advises);
    await db.transaction(async (tx) => {
      const fields = { name: change.name, roles: change.roles, active: change.active };
      await tx
        .update(staff)
        .set({ ...fields, updatedAt: now() })
        .where(eq(staff.id, id));
      if (change.advises) await replaceAdviserScopes(tx, id, change.advises);
      const diff = changedFields(
        {
          name: before.name,
          roles: before.roles,
          active: before.active,
          advises: before.advises.map(({ department_id, level }) => ({ department_id, level })),
        },
        { ...fields, advises: change.advises },
      );
      if (diff.changed)
        await recordAudit(
          tx,
          {
            staffId: admin.id,
            action: "staff.update",
            entity: "staff",
            entityId: id,
            before: diff.before,
            after: diff.after,
          },
          now(),
        );
      // A deactivated member, or one whose roles shrank, is signed out at once, everywhere; a
      // deactivated one's unused password links die too, so a reactivation revives none.
      if (change.active === false || change.roles)
        await endAllStaffSessions(tx as unknown as typeof db, id, now());
      if (change.active === false) await spendStaffPasswordLinks(tx, id, now());
    });
    const after = await findMember(id);
    return c.json({
      status: "success",
      message: updatedMessage(before.active, after),
      data: await staffAccount(db, after),
    });
  });

  app.post("/staff/accounts/:id/password-link", async (c) => {
    const { id } = readParams(c, StaffIdParam);
    const member = await findMember(id);
    if (!member.active) throw new ApiError(400, "That account is deactivated. Activate it first.");
    await db.transaction(async (tx) => {
      await recordAudit(
        tx,
        { staffId: c.var.staff.id, action: "staff.password_link", entity: "staff", entityId: id },
        now(),
      );
      await queuePasswordLink(tx, member);
    });
    return c.json({
      status: "success",
      message: `A password link is on its way to ${member.email}.`,
    });
  });

  app.post("/staff/accounts/:id/totp-reset", async (c) => {
    const { id } = readParams(c, StaffIdParam);
    const member = await findMember(id);
    await db.transaction(async (tx) => {
      await tx
        .update(staff)
        .set({
          totpSecret: null,
          totpPendingSecret: null,
          totpLastStep: null,
          recoveryCodeHashes: [],
          updatedAt: now(),
        })
        .where(eq(staff.id, id));
      await recordAudit(
        tx,
        { staffId: c.var.staff.id, action: "staff.totp_reset", entity: "staff", entityId: id },
        now(),
      );
      await endAllStaffSessions(tx as unknown as typeof db, id, now());
    });
    return c.json({
      status: "success",
      message: `Authenticator reset: ${member.name} is signed out and must set up an authenticator app again at the next sign-in.`,
    });
  });

  // Wrong passwords slow one network for one e-mail (decision 053); the owner who remembered the
  // password, or was given a new one, need not wait it out. Wrong second-factor codes too.
  app.delete("/staff/accounts/:id/sign-in-wait", async (c) => {
    const { id } = readParams(c, StaffIdParam);
    const member = await findMember(id);
    const { failures, slowed } = await signInStanding(db, member.email, now(), "staff-login");
    const codes = await wrongCodeCount(db, member.id);
    if (failures === 0 && !slowed && codes === 0) {
      return c.json({
        status: "success",
        message: `${member.name} has no wait to clear: no failed sign-ins are counted.`,
      });
    }
    await db.transaction(async (tx) => {
      await forgetFailedSignIns(tx, member.email, "staff-login");
      await forgetWrongCodes(tx, member.id);
      const entry = {
        staffId: c.var.staff.id,
        action: "staff.sign_in_wait_cleared",
        entity: "staff",
        entityId: id,
      };
      await recordAudit(
        tx,
        {
          ...entry,
          before: { failed_sign_ins: failures, wrong_codes: codes },
          after: { failed_sign_ins: 0, wrong_codes: 0 },
        },
        now(),
      );
    });
    return c.json({
      status: "success",
      message: `Sign-in wait cleared: ${member.name} can sign in again now.`,
    });
  });

  return app;
}

/** What a change did, in words: the administrator reads it above the list. */
function updatedMessage(wasActive: boolean, member: StaffRow) {
  if (wasActive && !member.active)
    return `Account deactivated: ${member.name} can no longer sign in.`;
  if (!wasActive && member.active) {
    return `Account activated: ${member.name} can sign in again. Links sent before the deactivation no longer work: send a password link if needed.`;
  }
  return `Changes saved for ${member.name}.`;
}
