import { Hono } from "hono";
import { and, eq } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import { courseMappings, courses, programmes } from "../db/schema.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { readJson, readQuery } from "../http/validate.ts";
import { MappingRequest, StructureQuery } from "../../common/structure/structure.ts";
import { requireStaff } from "../auth/require-staff.ts";
import { withUniqueNames } from "./structure-checks.ts";
import { mappingList } from "./structure-lists.ts";
import { saveMapping } from "./structure-writes.ts";

/** Which courses each programme offers at each level: the list and the form that adds one. */
export function mappingRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const app = new Hono<ApiEnv>();

  app.get(
    "/staff/course-mappings",
    requireStaff(deps, { roles: ["registry", "admin"] }),
    async (c) => c.json(await mappingList(db, readQuery(c, StructureQuery))),
  );

  // Adding the same course, programme and level again changes its semester: the key is (course, programme, level).
  app.post("/staff/course-mappings", requireStaff(deps, { roles: ["registry"] }), async (c) => {
    const request = await readJson(c, MappingRequest);
    const saved = await withUniqueNames(() =>
      db.transaction(async (tx) => {
        const [course] = await tx
          .select()
          .from(courses)
          .where(eq(courses.code, request.course_code));
        if (!course)
          throw new ApiError(
            400,
            `There is no course ${request.course_code}. Add the course first.`,
            { fields: { course_code: "Unknown course." } },
          );
        const [programme] = await tx
          .select()
          .from(programmes)
          .where(eq(programmes.id, request.programme_id));
        if (!programme)
          throw new ApiError(400, "Choose a programme from the list.", {
            fields: { programme_id: "Unknown programme." },
          });
        const [existing] = await tx
          .select()
          .from(courseMappings)
          .where(
            and(
              eq(courseMappings.courseId, course.id),
              eq(courseMappings.programmeId, programme.id),
              eq(courseMappings.level, request.level),
            ),
          );
        const values = {
          courseId: course.id,
          programmeId: programme.id,
          level: request.level,
          semester: request.semester,
        };
        await saveMapping(tx, { staffId: c.var.staff.id, at: now() }, existing ?? null, values);
        return { course, programme, created: !existing };
      }),
    );
    const message = `${saved.course.code} ${saved.created ? "is now offered" : "stays offered"} to ${saved.programme.name} at ${request.level} level.`;
    return c.json({ status: "success", message }, saved.created ? 201 : 200);
  });

  return app;
}
