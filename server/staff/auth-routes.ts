import { Hono } from "hono";
import { eq } from "drizzle-orm";
import type { ApiDeps } from "../app.ts";
import { staff } from "../db/schema.ts";
import { decoyHash, hashPassword, verifyPassword } from "../auth/password.ts";
import { createRateLimiter } from "../auth/rate-limit.ts";
import { clientAddress } from "../http/client-address.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { readJson } from "../http/validate.ts";
import { SecondFactorRequest, SetStaffPasswordRequest, StaffLoginRequest } from "../../src/lib/staff/staff.ts";
import { staffAccount } from "./accounts.ts";
import { setPasswordWithToken } from "./password-links.ts";
import { requireStaff, signInStage } from "./require-staff.ts";
import { completeSecondFactor, endStaffSession, startStaffSession } from "./staff-sessions.ts";
import { checkSecondFactor } from "./second-factor.ts";
import { totpRoutes } from "./totp-routes.ts";

const WRONG_CREDENTIALS = "That e-mail address or password is wrong. Check both and try again.";
const LINK_NOT_VALID =
  "This link is not valid: it may have been used already or have expired. Ask an administrator for a new one.";

// A desk that mistypes is slowed per address; one e-mail tried from many addresses is capped
// far higher, so nobody can lock a colleague out from outside (docs/decisions/080).
const PER_EMAIL_AND_CLIENT = { limit: 10, windowMs: 15 * 60_000 };
const PER_EMAIL = { limit: 100, windowMs: 15 * 60_000 };
const PER_CLIENT = { limit: 100, windowMs: 15 * 60_000 };

function tooMany(retryAfterSeconds: number, what: string): never {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  throw new ApiError(429, `Too many ${what}. Wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`, {
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}

/** Staff sign-in, the second factor, sign-out, who am I, and setting a password from a link. */
export function staffAuthRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const limiters = {
    emailAndClient: createRateLimiter(db, PER_EMAIL_AND_CLIENT),
    email: createRateLimiter(db, PER_EMAIL),
    client: createRateLimiter(db, PER_CLIENT),
  };
  const anyStage = requireStaff(deps, { stages: ["code", "enrol"] });
  const app = new Hono<ApiEnv>();

  app.post("/staff/login", async (c) => {
    const { email, password } = await readJson(c, StaffLoginRequest);
    const client = clientAddress(c.req.raw);
    const checks = [
      { limiter: limiters.client, key: `staff-login:client:${client}` },
      { limiter: limiters.emailAndClient, key: `staff-login:email-client:${email}:${client}` },
      { limiter: limiters.email, key: `staff-login:email:${email}` },
    ];
    for (const { limiter, key } of checks) {
      const { blocked, retryAfterSeconds } = await limiter.hit(key, now());
      if (blocked) tooMany(retryAfterSeconds, "failed sign-in attempts");
    }
    const [member] = await db.select().from(staff).where(eq(staff.email, email)).limit(1);
    const usable = member?.active && member.passwordHash;
    const matches = await verifyPassword(password, usable ? member.passwordHash! : await decoyHash());
    if (!member || !usable || !matches) {
      deps.logger.warn("staff sign-in refused", { reason: !member ? "unknown e-mail" : !usable ? "inactive or no password" : "password" });
      throw new ApiError(401, WRONG_CREDENTIALS);
    }
    for (const { limiter, key } of checks) await limiter.release(key);
    const stage = signInStage({ ...member, sessionTokenHash: "", secondFactorDone: false });
    const access = await startStaffSession(db, member.id, now(), stage === "ready");
    return c.json({ status: "success", message: "Signed in", data: { tokens: { access }, stage } });
  });

  app.post("/staff/login/code", requireStaff(deps, { stages: ["code"] }), async (c) => {
    const { code } = await readJson(c, SecondFactorRequest);
    const member = c.var.staff;
    const { blocked, retryAfterSeconds } = await limiters.emailAndClient.hit(`staff-code:${member.id}`, now());
    if (blocked) tooMany(retryAfterSeconds, "wrong codes");
    if (!(await checkSecondFactor(db, member, code, now()))) {
      throw new ApiError(400, "That code is not right. Enter the 6-digit code your authenticator app shows now, or a recovery code.", {
        fields: { code: "That code is not right." },
      });
    }
    await limiters.emailAndClient.clear(`staff-code:${member.id}`);
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
    const member = await setPasswordWithToken(db, token, await hashPassword(password), now());
    if (!member) throw new ApiError(400, LINK_NOT_VALID);
    return c.json({ status: "success", message: "Your password is set. Sign in with your e-mail address and the new password." });
  });

  app.route("/", totpRoutes(deps));
  return app;
}
