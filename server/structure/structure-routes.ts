import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { ApiDeps } from "../deps.ts";
import type { Transaction } from "../db/client.ts";
import { courses, departments, faculties, programmes } from "../db/schema.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { readJson, readParams, readQuery } from "../http/validate.ts";
import { RecordId } from "../../common/validation/lists.ts";
import { defaultFinalLevel } from "../../common/structure/structure-cells.ts";
import {
  CourseChange,
  CourseRequest,
  DepartmentChange,
  DepartmentRequest,
  FacultyRequest,
  ProgrammeChange,
  ProgrammeRequest,
  StructureQuery,
} from "../../common/structure/structure.ts";
import { requireStaff } from "../auth/require-staff.ts";
import { courseList, departmentList, facultyList, programmeList } from "./structure-lists.ts";
import { findById, refuseTakenName, requireFaculty, withUniqueNames } from "./structure-checks.ts";
import { lockCourse, unitChangeRefusals } from "./course-units.ts";
import {
  saveCourse,
  saveDepartment,
  saveFaculty,
  saveProgramme,
  type Author,
} from "./structure-writes.ts";

const IdParam = z.object({ id: RecordId("No such record.") });

/** Faculties, departments, programmes and courses: the lists and the one-item forms (decision 083). */
export function structureRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const app = new Hono<ApiEnv>();
  const reads = requireStaff(deps, { roles: ["registry", "admin"] });
  const writes = requireStaff(deps, { roles: ["registry"] });
  const author = (staffId: number): Author => ({ staffId, at: now() });
  const inTransaction = <T>(work: (tx: Transaction) => Promise<T>) =>
    withUniqueNames(() => db.transaction(work));

  app.get("/staff/faculties", reads, async (c) =>
    c.json(await facultyList(db, readQuery(c, StructureQuery))),
  );
  // Any staff member may list departments (the adviser picker reads them all at once).
  app.get("/staff/departments", requireStaff(deps), async (c) =>
    c.json(
      await departmentList(
        db,
        readQuery(
          c,
          StructureQuery.extend({
            page_size: StructureQuery.shape.page_size.removeDefault().default(1000),
          }),
        ),
      ),
    ),
  );
  // Like departments: any staff page that names programmes (a student's record) reads them.
  app.get("/staff/programmes", requireStaff(deps), async (c) =>
    c.json(
      await programmeList(
        db,
        readQuery(
          c,
          StructureQuery.extend({
            page_size: StructureQuery.shape.page_size.removeDefault().default(1000),
          }),
        ),
      ),
    ),
  );
  app.get("/staff/courses", reads, async (c) =>
    c.json(await courseList(db, readQuery(c, StructureQuery))),
  );

  app.post("/staff/faculties", writes, async (c) => {
    const { name } = await readJson(c, FacultyRequest);
    const saved = await inTransaction(async (tx) => {
      await refuseTakenName(tx, faculties, "faculty", name);
      return saveFaculty(tx, author(c.var.staff.id), null, { name });
    });
    return c.json({ status: "success", message: `${saved.name} added.`, data: saved }, 201);
  });

  app.patch("/staff/faculties/:id", writes, async (c) => {
    const { id } = readParams(c, IdParam);
    const { name } = await readJson(c, FacultyRequest);
    const saved = await inTransaction(async (tx) => {
      const existing = await findById(tx, faculties, id, "faculty");
      await refuseTakenName(tx, faculties, "faculty", name, id);
      return saveFaculty(tx, author(c.var.staff.id), existing, { name });
    });
    return c.json({ status: "success", message: `Saved: ${saved.name}.`, data: saved });
  });

  app.post("/staff/departments", writes, async (c) => {
    const request = await readJson(c, DepartmentRequest);
    const saved = await inTransaction(async (tx) => {
      await requireFaculty(tx, request.faculty_id);
      await refuseTakenName(tx, departments, "department", request.name);
      return saveDepartment(tx, author(c.var.staff.id), null, {
        name: request.name,
        facultyId: request.faculty_id,
      });
    });
    return c.json({ status: "success", message: `${saved.name} added.`, data: saved }, 201);
  });

  app.patch("/staff/departments/:id", writes, async (c) => {
    const { id } = readParams(c, IdParam);
    const change = await readJson(c, DepartmentChange);
    const saved = await inTransaction(async (tx) => {
      const existing = await findById(tx, departments, id, "department");
      if (change.faculty_id) await requireFaculty(tx, change.faculty_id);
      if (change.name) await refuseTakenName(tx, departments, "department", change.name, id);
      const values = {
        name: change.name ?? existing.name,
        facultyId: change.faculty_id ?? existing.facultyId,
      };
      return saveDepartment(tx, author(c.var.staff.id), existing, values);
    });
    return c.json({ status: "success", message: `Saved: ${saved.name}.`, data: saved });
  });

  app.post("/staff/programmes", writes, async (c) => {
    const request = await readJson(c, ProgrammeRequest);
    const saved = await inTransaction(async (tx) => {
      await requireFaculty(tx, request.faculty_id);
      await refuseTakenName(tx, programmes, "programme", request.name);
      const finalLevel = request.final_level ?? defaultFinalLevel(request.name);
      return saveProgramme(tx, author(c.var.staff.id), null, {
        name: request.name,
        facultyId: request.faculty_id,
        finalLevel,
      });
    });
    return c.json(
      {
        status: "success",
        message: `${saved.name} added; its final year is ${saved.finalLevel} level.`,
        data: saved,
      },
      201,
    );
  });

  app.patch("/staff/programmes/:id", writes, async (c) => {
    const { id } = readParams(c, IdParam);
    const change = await readJson(c, ProgrammeChange);
    const saved = await inTransaction(async (tx) => {
      const existing = await findById(tx, programmes, id, "programme");
      if (change.faculty_id) await requireFaculty(tx, change.faculty_id);
      if (change.name) await refuseTakenName(tx, programmes, "programme", change.name, id);
      const values = {
        name: change.name ?? existing.name,
        facultyId: change.faculty_id ?? existing.facultyId,
        finalLevel: change.final_level ?? existing.finalLevel,
      };
      return saveProgramme(tx, author(c.var.staff.id), existing, values);
    });
    return c.json({ status: "success", message: `Saved: ${saved.name}.`, data: saved });
  });

  app.post("/staff/courses", writes, async (c) => {
    const request = await readJson(c, CourseRequest);
    const saved = await inTransaction(async (tx) => {
      const [taken] = await tx
        .select({ id: courses.id })
        .from(courses)
        .where(eq(courses.code, request.code));
      if (taken)
        throw new ApiError(409, `${request.code} already exists; edit it in the list instead.`, {
          fields: { code: "Already exists." },
        });
      return saveCourse(tx, author(c.var.staff.id), null, request);
    });
    return c.json({ status: "success", message: `${saved.code} added.`, data: saved }, 201);
  });

  app.patch("/staff/courses/:id", writes, async (c) => {
    const { id } = readParams(c, IdParam);
    const change = await readJson(c, CourseChange);
    const saved = await inTransaction(async (tx) => {
      const existing = await lockCourse(tx, id);
      if (change.code && change.code !== existing.code) {
        const [taken] = await tx
          .select({ id: courses.id })
          .from(courses)
          .where(eq(courses.code, change.code));
        if (taken)
          throw new ApiError(409, `${change.code} already exists.`, {
            fields: { code: "Already exists." },
          });
      }
      const values = {
        code: change.code ?? existing.code,
        title: change.title ?? existing.title,
        unit: change.unit ?? existing.unit,
        semester: change.semester ?? existing.semester,
      };
      const refused = (await unitChangeRefusals(tx, [{ course: existing, unit: values.unit }])).get(
        existing.id,
      );
      if (refused) throw new ApiError(409, refused);
      return saveCourse(tx, author(c.var.staff.id), existing, values);
    });
    return c.json({ status: "success", message: `Saved: ${saved.code}.`, data: saved });
  });

  return app;
}
