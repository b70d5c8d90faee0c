import { Hono } from "hono";
import type { ApiDeps } from "../../deps.ts";
import { isUnusablePasswordHash } from "../../auth/password.ts";
import type { ApiEnv } from "../../http/context.ts";
import { ApiError } from "../../http/errors.ts";
import { readParams } from "../../http/validate.ts";
import { recordAudit } from "../../audit/audit.ts";
import { requireStaff } from "../../auth/require-staff.ts";
import { ActivationLinkRequest } from "../../../common/students/registry.ts";
import { readJson } from "../../http/validate.ts";
import { ACTIVATION_LINK_HOURS, issueActivationLink } from "./activation.ts";
import { clearSignInLockout, signInFailures } from "./sign-in-lockout.ts";
import { StudentIdParam, STUDENT_RECORD_ROLES } from "./student-access.ts";
import { findStudent } from "./student-records.ts";

/** Helping a student in: forget their failed sign-ins, or mail the link that sets a first password. */
export function studentSignInRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const app = new Hono<ApiEnv>();
  const registry = requireStaff(deps, { roles: STUDENT_RECORD_ROLES });

  app.delete("/staff/students/:id/sign-in-lockout", registry, async (c) => {
    const { id } = readParams(c, StudentIdParam);
    const student = await findStudent(db, id);
    const { failures, locked } = await signInFailures(db, student.phone, now());
    if (failures === 0 && !locked) {
      return c.json({
        status: "success",
        message: "No failed sign-ins are counted against this student: there is nothing to reset.",
      });
    }
    await db.transaction(async (tx) => {
      await clearSignInLockout(tx, student.phone);
      const entry = {
        staffId: c.var.staff.id,
        action: "student.sign_in_lockout_reset",
        entity: "student",
        entityId: id,
      };
      await recordAudit(
        tx,
        { ...entry, before: { failed_sign_ins: failures }, after: { failed_sign_ins: 0 } },
        now(),
      );
    });
    return c.json({
      status: "success",
      message: `${failures} failed sign-in${failures === 1 ? "" : "s"} forgotten: the student can sign in again now.`,
    });
  });

  app.post("/staff/students/:id/activation-link", registry, async (c) => {
    const { id } = readParams(c, StudentIdParam);
    // No body is a first send; the page adds replace_earlier once the officer has seen the warning.
    const { replace_earlier: replaceEarlier = false } = c.req.header("content-type")
      ? await readJson(c, ActivationLinkRequest)
      : {};
    const student = await findStudent(db, id);
    if (!isUnusablePasswordHash(student.passwordHash)) {
      throw new ApiError(
        400,
        'This student has already chosen a password. If they have forgotten it, they can use "Forgot password" on the sign-in page with the e-mail on file.',
      );
    }
    const sent = await db.transaction(async (tx) => {
      const issued = await issueActivationLink(deps, tx, student, replaceEarlier);
      await recordAudit(
        tx,
        {
          staffId: c.var.staff.id,
          action: "student.activation_link",
          entity: "student",
          entityId: id,
          after: { email: student.email, shown_on_screen: !issued.mailed },
        },
        now(),
      );
      return issued;
    });
    if (!sent.mailed) {
      // The officer is with the student (or calls them): the link is theirs to open now.
      const message = `${student.othername} ${student.surname} has no e-mail address, so the link is shown here instead of mailed. Open it with the student now (on this computer or their phone) so they choose a password; it works once, for ${ACTIVATION_LINK_HOURS} hours.`;
      return c.json({ status: "success", message, data: { link: sent.link } });
    }
    return c.json({
      status: "success",
      message: `An activation link is on its way to ${student.email}. It works for ${ACTIVATION_LINK_HOURS} hours; any earlier link has stopped working.`,
      data: { link: null },
    });
  });

  return app;
}
