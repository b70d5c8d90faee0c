import { Hono } from "hono";
import { and, eq, isNull } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import { staff } from "../db/schema.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { readJson } from "../http/validate.ts";
import { EnrolConfirmRequest } from "../../common/staff/staff.ts";
import { verifyPassword } from "../auth/password.ts";
import { createSignInLimits } from "../auth/sign-in-limits.ts";
import { clientNetwork } from "../http/client-address.ts";
import { recordAudit } from "../audit/audit.ts";
import { requireStaff } from "../auth/require-staff.ts";
import { completeSecondFactor } from "./staff-sessions.ts";
import { acceptedStep, newRecoveryCodes, newTotpSecret, totpUri } from "./totp.ts";

const ALREADY_ENROLLED =
  "Your account already has an authenticator app. To use a new phone, ask an administrator to reset your authenticator; you then set up the new phone at your next sign-in.";

/**
 * Enrolment of an authenticator app: `start` makes a secret (shown once as a QR code), `confirm`
 * takes a first code from the app, switches TOTP on and hands out the recovery codes once.
 * Only for an account that has none: replacing one would need no code from it, so a stolen
 * session could keep the account for good. A new phone goes through an admin's reset (decision 080).
 * `confirm` takes the password again: a session left open on a shared computer must not let the
 * next person bind their own phone (decision 163). Wrong passwords count as failed sign-ins.
 */
export function totpRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const enrolling = requireStaff(deps, { stages: ["enrol"] });
  const admitPassword = createSignInLimits(db, "staff-login");
  const app = new Hono<ApiEnv>();

  app.post("/staff/totp/start", enrolling, async (c) => {
    const member = c.var.staff;
    const secret = newTotpSecret();
    const started = await db
      .update(staff)
      .set({ totpPendingSecret: secret, updatedAt: now() })
      .where(and(eq(staff.id, member.id), isNull(staff.totpSecret)))
      .returning({ id: staff.id });
    if (started.length === 0) throw new ApiError(409, ALREADY_ENROLLED);
    return c.json({ data: { secret, uri: totpUri(secret, member.email) } });
  });

  app.post("/staff/totp/confirm", enrolling, async (c) => {
    const { code, password } = await readJson(c, EnrolConfirmRequest);
    const member = c.var.staff;
    if (member.totpSecret) throw new ApiError(409, ALREADY_ENROLLED);
    const pending = member.totpPendingSecret;
    if (!pending)
      throw new ApiError(
        400,
        "Start the set-up again: scan the new QR code, then enter the code it shows.",
      );
    const attempt = await admitPassword(member.email, clientNetwork(c.get("clientAddress")), now());
    if (!member.passwordHash || !(await verifyPassword(password, member.passwordHash))) {
      throw new ApiError(
        400,
        "That password is not right. Enter the password you signed in with.",
        {
          fields: { password: "That password is not right." },
        },
      );
    }
    await attempt.succeeded();
    const step = acceptedStep(pending, code.replaceAll(" ", ""), now());
    if (step === null) {
      throw new ApiError(
        400,
        "That code is not right. Check the phone's clock and enter the 6-digit code the app shows now.",
        {
          fields: { code: "That code is not right." },
        },
      );
    }
    const recovery = newRecoveryCodes();
    const enrolled = await db.transaction(async (tx) => {
      const rows = await tx
        .update(staff)
        .set({
          totpSecret: pending,
          totpPendingSecret: null,
          totpLastStep: step,
          recoveryCodeHashes: recovery.hashes,
          updatedAt: now(),
        })
        .where(
          and(
            eq(staff.id, member.id),
            eq(staff.totpPendingSecret, pending),
            isNull(staff.totpSecret),
          ),
        )
        .returning({ id: staff.id });
      if (rows.length === 0) return false;
      await recordAudit(
        tx,
        { staffId: member.id, action: "staff.totp_enrolled", entity: "staff", entityId: member.id },
        now(),
      );
      return true;
    });
    if (!enrolled)
      throw new ApiError(409, "The set-up changed while you were entering the code. Start again.");
    await completeSecondFactor(db, member.sessionTokenHash, now());
    return c.json({
      status: "success",
      message: "Authenticator app set up.",
      data: { recovery_codes: recovery.codes },
    });
  });

  return app;
}
