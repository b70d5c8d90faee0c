import { Hono } from "hono";
import { z } from "zod";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { readParams } from "../http/validate.ts";
import { assertOwnId, requireStudent } from "../auth/require-student.ts";
import { loadStudentRecord } from "./student-record.ts";

export const StudentIdParam = z.object({
  id: z.coerce
    .number({ error: "The student id must be a number." })
    .int("The student id must be a whole number.")
    .positive("The student id must be a positive number.")
    .max(2_147_483_647, "The student id is out of range."),
});

const PhotoKeyParam = z.object({
  key: z.string().regex(/^[0-9a-f-]{36}\.jpg$/, "That photo does not exist."),
});

export function studentRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  // Per-route, not app.use(): a sub-app's wildcard middleware would also guard other routers' paths.
  const signedIn = requireStudent(deps);

  app.get("/student/me", signedIn, async (c) =>
    c.json({ status: "success", data: await loadStudentRecord(deps.db, c.var.student) }),
  );

  // The spec reads the profile and the fuller student info from two calls; both answer the record.
  for (const path of ["/student/profile/:id", "/student/info/:id"]) {
    app.get(path, signedIn, async (c) => {
      const { id } = readParams(c, StudentIdParam);
      assertOwnId(c.var.student, id);
      return c.json({ status: "success", data: await loadStudentRecord(deps.db, c.var.student) });
    });
  }

  app.get("/student/photo/:key", signedIn, async (c) => {
    const { key } = readParams(c, PhotoKeyParam);
    // Only the student's own photo: another student's key is answered like an unknown one.
    if (key !== c.var.student.photo) throw new ApiError(404, "That photo does not exist.");
    const bytes = await deps.photos.read(key);
    if (!bytes) throw new ApiError(404, "That photo does not exist.");
    return c.body(new Uint8Array(bytes), 200, {
      "Content-Type": "image/jpeg",
      "Cache-Control": "private, max-age=86400, immutable",
      "X-Content-Type-Options": "nosniff",
    });
  });

  return app;
}
