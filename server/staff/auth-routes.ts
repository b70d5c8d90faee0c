import { Hono } from "hono";
import { and, eq } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import { staff } from "../db/schema.ts";
import { decoyHash, hashPassword, verifyPassword } from "../auth/password.ts";
import { upgradePasswordHash } from "../auth/password-upgrade.ts";
import { createRateLimiter } from "../auth/rate-limit.ts";
import { createSignInLimits } from "../auth/sign-in-limits.ts";
import { clientNetwork } from "../http/client-address.ts";
import { tooManyRequests } from "../http/too-many-requests.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { readJson } from "../http/validate.ts";
import {
  SecondFactorRequest,
  SetStaffPasswordRequest,
  StaffLoginRequest,
} from "../../common/staff/staff.ts";
import { staffAccount } from "./accounts.ts";
import { findLiveStaffPasswordToken, setPasswordWithToken } from "./password-links.ts";
import { requireStaff, signInStage } from "../auth/require-staff.ts";
import { completeSecondFactor, endStaffSession, startStaffSession } from "./staff-sessions.ts";
import { checkSecondFactor } from "./second-factor.ts";
import { recordAudit } from "../audit/audit.ts";
import { totpRoutes } from "./totp-routes.ts";
import { WRONG_CODES, wrongCodesKey } from "./wrong-codes.ts";

const WRONG_CREDENTIALS = "That e-mail address or password is wrong. Check both and try again.";
const LINK_NOT_VALID =
  "This link is not valid: it may have been used already or have expired. Ask an administrator for a new one.";

/** Staff sign-in, the second factor, sign-out, who am I, and setting a password from a link. */
export function staffAuthRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  // The students' sign-in rules (decision 053), in keys of their own.
  const admitSignIn = createSignInLimits(db, "staff-login");
  const wrongCodes = createRateLimiter(db, WRONG_CODES);
  const anyStage = requireStaff(deps, { stages: ["code", "enrol"] });
  const app = new Hono<ApiEnv>();

  app.post("/staff/login", async (c) => {
    const { email, password } = await readJson(c, StaffLoginRequest);
    const attempt = await admitSignIn(email, clientNetwork(c.get("clientAddress")), now());
    const [member] = await db.select().from(staff).where(eq(staff.email, email)).limit(1);
    const usable = member?.active && member.passwordHash;
    const matches = await verifyPassword(
      password,
      usable ? member.passwordHash! : await decoyHash(),
    );
    if (!member || !usable || !matches) {
      deps.logger.warn("staff sign-in refused", {
        reason: !member ? "unknown e-mail" : !usable ? "inactive or no password" : "password",
      });
      throw new ApiError(401, WRONG_CREDENTIALS);
    }
    await attempt.succeeded();
    await upgradePasswordHash({
      password,
      stored: member.passwordHash!,
      cost: deps.passwordCost,
      save: (fresh) =>
        db
          .update(staff)
          .set({ passwordHash: fresh })
          .where(and(eq(staff.id, member.id), eq(staff.passwordHash, member.passwordHash!))),
      logger: deps.logger,
      facts: { staffId: member.id },
    });
    const stage = signInStage({ ...member, sessionTokenHash: "", secondFactorDone: false });
    const access = await startStaffSession(db, member.id, now(), stage === "ready");
    await recordAudit(
      db,
      {
        staffId: member.id,
        action: "staff.sign_in",
        entity: "staff",
        entityId: member.id,
        after: { stage },
      },
      now(),
    );
    return c.json({ status: "success", message: "Signed in", data: { tokens: { access }, stage } });
  });

  app.post("/staff/login/code", requireStaff(deps, { stages: ["code"] }), async (c) => {
    const { code } = await readJson(c, SecondFactorRequest);
    const member = c.var.staff;
    const { blocked, retryAfterSeconds } = await wrongCodes.hit(wrongCodesKey(member.id), now());
    // Every refused second factor is in the audit log, but never the code that was typed.
    const refused = (why: string) =>
      recordAudit(
        db,
        {
          staffId: member.id,
          action: "staff.second_factor_refused",
          entity: "staff",
          entityId: member.id,
          after: { refused: why },
        },
        now(),
      );
    if (blocked) {
      await refused("too many wrong codes");
      throw tooManyRequests("Too many wrong codes.", retryAfterSeconds, "and try again.");
    }
    if (!(await checkSecondFactor(db, member, code, now()))) {
      await refused("wrong code");
      throw new ApiError(
        400,
        "That code is not right. Enter the 6-digit code your authenticator app shows now, or a recovery code.",
        {
          fields: { code: "That code is not right." },
        },
      );
    }
    await wrongCodes.clear(wrongCodesKey(member.id));
    await completeSecondFactor(db, member.sessionTokenHash, now());
    return c.json({ status: "success", message: "Signed in", data: { stage: "ready" } });
  });

  app.get("/staff/me", anyStage, async (c) => {
    const member = c.var.staff;
    return c.json({ data: { ...(await staffAccount(db, member)), stage: signInStage(member) } });
  });

  app.post("/staff/logout", anyStage, async (c) => {
    await endStaffSession(db, c.var.staff.sessionTokenHash, now());
    return c.json({ status: "success", message: "You have signed out." });
  });

  app.post("/staff/password/set", async (c) => {
    const { token, password } = await readJson(c, SetStaffPasswordRequest);
    // The link is looked up before the password is hashed, as for students (decision 040): this
    // route needs no session, and a made-up token must not cost a hash on the one hashing thread.
    const live = await findLiveStaffPasswordToken(db, token, now());
    if (!live) throw new ApiError(400, LINK_NOT_VALID);
    const member = await setPasswordWithToken(
      db,
      live,
      await hashPassword(password, deps.passwordCost),
      now(),
    );
    if (!member) throw new ApiError(400, LINK_NOT_VALID);
    return c.json({
      status: "success",
      message: "Your password is set. Sign in with your e-mail address and the new password.",
    });
  });

  app.route("/", totpRoutes(deps));
  return app;
}
