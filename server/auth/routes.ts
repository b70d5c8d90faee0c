import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { ApiDeps } from "../app.ts";
import { students } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { clientAddress } from "../http/client-address.ts";
import type { ApiEnv } from "../http/context.ts";
import { readJson } from "../http/validate.ts";
import { loadStudentRecord } from "../students/student-record.ts";
import { normalizeNigerianPhone } from "../../src/lib/validation/person.ts";
import { decoyHash, verifyPassword } from "./password.ts";
import { createRateLimiter } from "./rate-limit.ts";
import { endSession, startSession } from "./sessions.ts";
import { requireStudent } from "./require-student.ts";

export const LoginRequest = z.object({
  username: z
    .string({ error: "Enter your phone number." })
    .trim()
    .min(1, "Enter your phone number.")
    .max(32, "That phone number is too long."),
  password: z
    .string({ error: "Enter your password." })
    .min(1, "Enter your password.")
    .max(200, "That password is too long."),
});

const WRONG_CREDENTIALS = "That phone number or password is wrong. Check both and try again.";
export const FAILED_SIGN_IN_LIMIT = { limit: 10, windowMs: 15 * 60_000 };
/** The counter of failed sign-ins for one phone; a password reset clears it. */
export const signInFailureKey = (phone: string) => `login:phone:${phone}`;

export function authRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const failures = createRateLimiter(db, FAILED_SIGN_IN_LIMIT);
  const app = new Hono<ApiEnv>();

  app.post("/student/uniben/login", async (c) => {
    const { username, password } = await readJson(c, LoginRequest);
    const phone = normalizeNigerianPhone(username) ?? username;
    // Every attempt is counted before the password is checked, so a burst of parallel guesses
    // cannot all pass the limit; a right password takes its count back. The client first: a
    // client already blocked adds nothing to the phone's counter (no locking others out).
    const clientKey = `login:client:${clientAddress(c.req.raw)}`;
    const phoneKey = signInFailureKey(phone);
    for (const key of [clientKey, phoneKey]) {
      const { blocked, retryAfterSeconds } = await failures.hit(key, now());
      if (blocked) {
        const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
        throw new ApiError(
          429,
          `Too many failed sign-in attempts. Wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again, or reset your password.`,
          { headers: { "Retry-After": String(retryAfterSeconds) } },
        );
      }
    }
    const [student] = await db.select().from(students).where(eq(students.phone, phone)).limit(1);
    const passwordMatches = await verifyPassword(password, student?.passwordHash ?? (await decoyHash()));
    if (!student || !passwordMatches) {
      deps.logger.warn("sign-in refused", { reason: student ? "password" : "unknown phone" });
      throw new ApiError(401, WRONG_CREDENTIALS);
    }
    await failures.clear(phoneKey);
    await failures.release(clientKey);
    const access = await startSession(db, student.id, now(), deps.sessions);
    return c.json({
      status: "success",
      message: "Login successful",
      data: { tokens: { access, student: await loadStudentRecord(db, student) } },
    });
  });

  app.post("/student/logout", requireStudent(deps), async (c) => {
    await endSession(db, c.var.student.sessionTokenHash, now());
    return c.json({ status: "success", message: "You have signed out." });
  });

  return app;
}
