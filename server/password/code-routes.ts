import { Hono } from "hono";
import { eq } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { clientNetwork } from "../http/client-address.ts";
import { readJson } from "../http/validate.ts";
import { tooManyRequests } from "../http/too-many-requests.ts";
import { students } from "../db/schema.ts";
import { hashPassword } from "../auth/password.ts";
import { createRateLimiter, type RateLimitRule } from "../auth/rate-limit.ts";
import { ResetCodeRequest, ResetWithCodeRequest } from "../../common/password/password-reset.ts";
import {
  checkResetCode,
  completeCodeReset,
  issueResetCode,
  RESET_CODE_MINUTES,
} from "./reset-codes.ts";
import { resetCodeText } from "../sms/templates.ts";
import { internationalPhone } from "../sms/phone-numbers.ts";
import { afterPasswordSet, PASSWORD_CHANGED } from "./student-password.ts";

// A code costs the college money and a student's inbox: three an hour is enough for one that did
// not arrive; a network (a cybercafé, one mobile operator's gateway) may ask for a few dozen.
const PER_PHONE_SENDS: RateLimitRule = { limit: 3, windowMs: 60 * 60_000 };
const PER_NETWORK_SENDS: RateLimitRule = { limit: 20, windowMs: 60 * 60_000 };
// Each code takes five tries; a network trying codes for many numbers is guessing, not mistyping.
const PER_NETWORK_TRIES: RateLimitRule = { limit: 30, windowMs: 60 * 60_000 };

export const CODE_SENT = `If that phone number is on a student's record, a 6-digit code is on its way by SMS. It works for ${RESET_CODE_MINUTES} minutes.`;
export const CODE_NOT_RIGHT =
  "That code does not work: it may be mistyped, expired, replaced by a newer code or tried too often. Check the newest SMS, or ask for a new code.";
/** Some networks deliver an SMS minutes late; a retry within the code's life is still worth it. */
const SEND_FOR_SECONDS = (RESET_CODE_MINUTES - 1) * 60;

/**
 * A new password without an e-mail address: a 6-digit code by SMS to the phone on the record,
 * then the code with the new password (decision 200). Both answers are the same for a number on a
 * record and one that is not.
 */
export function resetCodeRoutes(deps: ApiDeps) {
  const { db, now, logger } = deps;
  const perPhone = createRateLimiter(db, PER_PHONE_SENDS);
  const perNetworkSends = createRateLimiter(db, PER_NETWORK_SENDS);
  const perNetworkTries = createRateLimiter(db, PER_NETWORK_TRIES);
  const app = new Hono<ApiEnv>();

  async function refuseWhenBlocked(
    checks: { limiter: ReturnType<typeof createRateLimiter>; key: string }[],
    what: string,
  ) {
    for (const { limiter, key } of checks) {
      const { blocked, retryAfterSeconds } = await limiter.hit(key, now());
      if (blocked) throw tooManyRequests(what, retryAfterSeconds, "and try again.");
    }
  }

  /** The code and its SMS in one transaction: the message is queued exactly when the code can work. */
  async function queueResetCode(student: typeof students.$inferSelect) {
    await db.transaction(async (tx) => {
      const issued = await issueResetCode(tx, student, now());
      if (issued === null) {
        logger.info("password code not sent: the phone number changed meanwhile", {
          studentId: student.id,
        });
        return;
      }
      await deps.jobs.sendSms(tx, {
        key: `reset-code:${issued.codeId}`,
        kind: "reset-code",
        studentId: student.id,
        to: internationalPhone(student.phone),
        text: resetCodeText(issued.code),
        retryForSeconds: SEND_FOR_SECONDS,
      });
    });
  }

  app.post("/password/request-reset-code", async (c) => {
    const { phone } = await readJson(c, ResetCodeRequest);
    // The network first, so a network already blocked adds nothing to a number's counter.
    await refuseWhenBlocked(
      [
        {
          limiter: perNetworkSends,
          key: `reset-code:client:${clientNetwork(c.get("clientAddress"))}`,
        },
        { limiter: perPhone, key: `reset-code:phone:${phone}` },
      ],
      "Too many password codes asked for.",
    );
    const [student] = await db.select().from(students).where(eq(students.phone, phone)).limit(1);
    // Known or not, the answer is the same and leaves at the same time: the code and its SMS are
    // written after it, as the e-mail link's are (routes.ts).
    if (student) {
      queueResetCode(student).catch((error: unknown) =>
        logger.error("password code not queued", { studentId: student.id, error: String(error) }),
      );
    }
    return c.json({ status: "success", message: CODE_SENT });
  });

  app.post("/password/reset-with-code", async (c) => {
    const { phone, code, password } = await readJson(c, ResetWithCodeRequest);
    await refuseWhenBlocked(
      [
        {
          limiter: perNetworkTries,
          key: `reset-code-try:client:${clientNetwork(c.get("clientAddress"))}`,
        },
      ],
      "Too many codes tried.",
    );
    // The code is checked before the (deliberately slow) password hash is computed.
    const live = await checkResetCode(db, phone, code, now());
    if (!live) throw new ApiError(400, CODE_NOT_RIGHT, { fields: { code: CODE_NOT_RIGHT } });
    const passwordHash = await hashPassword(password, deps.passwordCost);
    if (!(await completeCodeReset(db, live, passwordHash, now())))
      throw new ApiError(400, CODE_NOT_RIGHT, { fields: { code: CODE_NOT_RIGHT } });
    await afterPasswordSet(deps, live.student, "with an SMS code");
    return c.json({ status: "success", message: PASSWORD_CHANGED });
  });

  return app;
}
