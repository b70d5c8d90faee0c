import { Hono } from "hono";
import { eq, sql } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { clientNetwork } from "../http/client-address.ts";
import { readJson } from "../http/validate.ts";
import { tooManyRequests } from "../http/too-many-requests.ts";
import { students } from "../db/schema.ts";
import { hashPassword } from "../auth/password.ts";
import { createRateLimiter } from "../auth/rate-limit.ts";
import {
  ResetCompleteRequest,
  ResetEmailRequest,
  ResetLinkCheck,
} from "../../common/password/password-reset.ts";
import {
  completeReset,
  findLiveResetToken,
  issueResetToken,
  whyLinkIsDead,
  type DeadLink,
} from "./reset-tokens.ts";
import { formatDeadline } from "../../common/format/dates.ts";
import { resetMail } from "./reset-mail.ts";
import { encodeUid } from "./uidb64.ts";
import { afterPasswordSet, PASSWORD_CHANGED } from "./student-password.ts";

// Enough for a student who mistypes or loses a mail; too few to bomb an inbox or spray addresses.
const PER_EMAIL_LIMIT = { limit: 5, windowMs: 60 * 60_000 };
const PER_CLIENT_LIMIT = { limit: 20, windowMs: 60 * 60_000 };

const LINK_SENT =
  "If that e-mail address belongs to a student, a password reset link is on its way.";
const LINK_NOT_VALID =
  "This password reset link is not valid: it may have been used already or have expired. Ask for a new one on the Forgot Password page.";

/**
 * What the page of a dead link says before anyone types a password (decision 156), and where the
 * student gets a new one: `fields.next` is "forgot-password" when the Forgot Password page can
 * help (an address is on file), "registry" when only the registry can.
 */
function deadLinkRefusal(dead: DeadLink): ApiError {
  const when = formatDeadline(dead.at);
  const next = dead.hasEmail ? "forgot-password" : "registry";
  const getAnother = dead.hasEmail
    ? "Ask for a new link on the Forgot Password page with your e-mail address, or ask the registry to send one."
    : "Ask the registry for a new one: they can give it to you in person.";
  const message =
    dead.why === "replaced"
      ? `This link no longer works: the registry sent a newer activation link at ${when} (Nigerian time), which replaced it. Use the newest link you were given. ${dead.hasEmail ? "It is in your newest e-mail from the college; if you cannot find it, ask the registry." : "If you do not have it, ask the registry for a new one."}`
      : dead.purpose === "activation"
        ? `This activation link expired at ${when} (Nigerian time). ${getAnother}`
        : `This password reset link expired at ${when} (Nigerian time). Ask for a new one on the Forgot Password page.`;
  return new ApiError(400, message, { fields: { next } });
}

export function passwordRoutes(deps: ApiDeps) {
  const { db, now, logger } = deps;
  const perEmail = createRateLimiter(db, PER_EMAIL_LIMIT);
  const perClient = createRateLimiter(db, PER_CLIENT_LIMIT);
  const app = new Hono<ApiEnv>();

  /** The token and its mail in one transaction: the link is mailed exactly when it can work. */
  async function queueResetLink(student: typeof students.$inferSelect) {
    await db.transaction(async (tx) => {
      const token = await issueResetToken(tx, student, now());
      if (token === null) {
        logger.info("password reset link not sent: the e-mail address changed meanwhile", {
          studentId: student.id,
        });
        return;
      }
      const link = new URL(`/password/reset/${encodeUid(student.id)}/${token}`, deps.publicOrigin);
      await deps.jobs.sendMail(tx, resetMail(student, link.toString()));
    });
  }

  app.post("/password/request-reset-email/", async (c) => {
    const { email, redirect_url } = await readJson(c, ResetEmailRequest);
    if (redirect_url !== undefined && !isOwnOrigin(redirect_url, deps.publicOrigin)) {
      const message =
        "The reset link can only lead to this portal; redirect_url must start with its address.";
      throw new ApiError(400, message, { fields: { redirect_url: message } });
    }
    const address = email.toLowerCase();
    // Counted and checked in one step per key (parallel requests cannot all slip through);
    // the client first, so a client already blocked adds nothing to an address's counter.
    const checks = [
      { limiter: perClient, key: `reset:client:${clientNetwork(c.get("clientAddress"))}` },
      { limiter: perEmail, key: `reset:email:${address}` },
    ];
    for (const { limiter, key } of checks) {
      const { blocked, retryAfterSeconds } = await limiter.hit(key, now());
      if (blocked) {
        throw tooManyRequests(
          "Too many password reset requests.",
          retryAfterSeconds,
          "and try again.",
        );
      }
    }

    const [student] = await db
      .select()
      .from(students)
      .where(eq(sql`lower(${students.email})`, address))
      .limit(1);
    // Known or not, the answer is the same and leaves at the same time: the token and the queued
    // mail are written after it, so neither the body nor those writes tell who has an account.
    // Should this process stop before they commit, neither exists and the student asks again.
    if (student) {
      queueResetLink(student).catch((error: unknown) =>
        logger.error("password reset link not queued", {
          studentId: student.id,
          error: String(error),
        }),
      );
    }
    return c.json({ status: "success", success: LINK_SENT, message: LINK_SENT });
  });

  // Looks only: the link stays usable. Every link that would fail gets the same refusal, so the
  // answer says nothing about a student that the link itself does not prove.
  app.post("/password/reset-link-check", async (c) => {
    const { token, uidb64 } = await readJson(c, ResetLinkCheck);
    if (!(await findLiveResetToken(db, uidb64, token, now()))) {
      const dead = await whyLinkIsDead(db, uidb64, token, now());
      throw dead ? deadLinkRefusal(dead) : new ApiError(400, LINK_NOT_VALID);
    }
    return c.json({ status: "success", message: "Choose your new password." });
  });

  app.patch("/password/password-reset-complete", async (c) => {
    const { password, token, uidb64 } = await readJson(c, ResetCompleteRequest);
    // The token is checked before the (deliberately slow) password hash is computed.
    const live = await findLiveResetToken(db, uidb64, token, now());
    if (!live) throw new ApiError(400, LINK_NOT_VALID);
    const passwordHash = await hashPassword(password, deps.passwordCost);
    if (!(await completeReset(db, live, passwordHash, now())))
      throw new ApiError(400, LINK_NOT_VALID);
    await afterPasswordSet(deps, live.student, "with an e-mail link");
    return c.json({ status: "success", message: PASSWORD_CHANGED });
  });

  return app;
}

function isOwnOrigin(url: string, publicOrigin: string) {
  return URL.canParse(url) && new URL(url).origin === new URL(publicOrigin).origin;
}
