import { Hono } from "hono";
import { z } from "zod";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { readQuery } from "../http/validate.ts";
import { requireStudent } from "../auth/require-student.ts";
import { CourseSearchQuery, MappedQuery } from "../../common/courses/requests.ts";
import { departmentPage, mappedCourses, searchCourses } from "./catalogue.ts";

const DepartmentQuery = z.object({
  page_size: z.coerce
    .number({ error: "page_size must be a number." })
    .int("page_size must be a whole number.")
    .min(1, "page_size must be at least 1.")
    .max(100, "page_size can be at most 100.")
    .default(70),
  page: z.coerce
    .number({ error: "page must be a number." })
    .int("page must be a whole number.")
    .min(1, "page must be at least 1.")
    .max(10_000, "page is out of range.")
    .default(1),
});

/** The catalogue a student registers from: mapped courses, code search and departments. */
export function catalogueRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  const signedIn = requireStudent(deps);

  app.get("/courses/mapped/read", signedIn, async (c) => {
    const query = readQuery(c, MappedQuery);
    const filter = {
      programmeId: query.mapped_program ?? c.var.student.programmeId,
      level: query.mapped_level,
      semester: query.semester_int,
    };
    const data = await deps.sharedReads.read(
      `mapped courses ${filter.programmeId} ${filter.level} ${filter.semester ?? "any"}`,
      () => mappedCourses(deps.db, filter),
    );
    return c.json({ status: "success", data: { data } });
  });

  app.get("/courses/all/", signedIn, async (c) => {
    const query = readQuery(c, CourseSearchQuery);
    const data = await searchCourses(deps.db, {
      code: query.code,
      programmeId: query.affliate ?? c.var.student.programmeId,
      level: query.level,
    });
    return c.json({ status: "success", data: { data } });
  });

  app.get("/department/all", signedIn, async (c) => {
    const { page, page_size } = readQuery(c, DepartmentQuery);
    return c.json(await departmentPage(deps.db, page, page_size));
  });

  return app;
}
