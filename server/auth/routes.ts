import { Hono } from "hono";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { ApiDeps } from "../deps.ts";
import { preparedQuery } from "../db/prepared.ts";
import { students } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { clientNetwork } from "../http/client-address.ts";
import type { ApiEnv } from "../http/context.ts";
import { readJson } from "../http/validate.ts";
import { loadStudentRecord, placementColumns } from "../students/student-record.ts";
import { normalizeNigerianPhone } from "../../common/validation/person.ts";
import { decoyHash, verifyPassword } from "./password.ts";
import { upgradePasswordHash } from "./password-upgrade.ts";
import { createSignInLimits } from "./sign-in-limits.ts";
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

// The placement (programme, current session, fees paid in it) comes with the row: a sign-in that
// succeeds answers the student's record and primes the session cache with both, in one read.
const studentWithPhone = preparedQuery((db) =>
  db
    .select({ student: students, placement: placementColumns() })
    .from(students)
    .where(eq(students.phone, sql.placeholder("phone")))
    .limit(1)
    .prepare("student_with_phone"),
);

const WRONG_CREDENTIALS = "That phone number or password is wrong. Check both and try again.";

export function authRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const admitSignIn = createSignInLimits(db);
  const app = new Hono<ApiEnv>();

  app.post("/student/uniben/login", async (c) => {
    const { username, password } = await readJson(c, LoginRequest);
    const phone = normalizeNigerianPhone(username) ?? username;
    // Counted before the slow password check, so a burst of guesses cannot slip past the limits.
    const attempt = await admitSignIn(phone, clientNetwork(c.get("clientAddress")), now());
    const [found] = await studentWithPhone(db).execute({ phone });
    const passwordMatches = await verifyPassword(
      password,
      found?.student.passwordHash ?? (await decoyHash()),
    );
    if (!found || !passwordMatches) {
      deps.logger.warn("sign-in refused", { reason: found ? "password" : "unknown phone" });
      throw new ApiError(401, WRONG_CREDENTIALS);
    }
    const { student, placement } = found;
    await attempt.succeeded();
    const passwordHash = await upgradePasswordHash({
      password,
      stored: student.passwordHash,
      cost: deps.passwordCost,
      save: (fresh) =>
        db
          .update(students)
          .set({ passwordHash: fresh })
          .where(and(eq(students.id, student.id), eq(students.passwordHash, student.passwordHash))),
      logger: deps.logger,
      facts: { studentId: student.id },
    });
    const signedIn = { student: { ...student, passwordHash }, placement };
    const access = await startSession(db, signedIn, now(), deps.sessions, deps.sessionCache);
    return c.json({
      status: "success",
      message: "Login successful",
      data: {
        tokens: {
          access,
          student: await loadStudentRecord(db, { ...signedIn.student, placement }),
        },
      },
    });
  });

  app.post("/student/logout", requireStudent(deps), async (c) => {
    await endSession(db, c.var.student.sessionTokenHash, now());
    deps.sessionCache?.forgetToken(c.var.student.sessionTokenHash);
    return c.json({ status: "success", message: "You have signed out." });
  });

  return app;
}
