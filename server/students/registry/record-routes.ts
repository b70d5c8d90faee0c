import { Hono } from "hono";
import { eq } from "drizzle-orm";
import type { ApiDeps } from "../../deps.ts";
import { students } from "../../db/schema.ts";
import { isUniqueViolation } from "../../db/unique-violation.ts";
import { cancelUnusedResetLinks } from "../../password/reset-tokens.ts";
import { cancelUnusedResetCodes } from "../../password/reset-codes.ts";
import type { ApiEnv } from "../../http/context.ts";
import { ApiError } from "../../http/errors.ts";
import { readJson, readParams, readQuery } from "../../http/validate.ts";
import {
  BiodataLockRequest,
  StudentSearchQuery,
  UpdateStudentRequest,
} from "../../../common/students/registry.ts";
import { changedFields, recordAudit } from "../../audit/audit.ts";
import { requireStaff } from "../../auth/require-staff.ts";
import { loadPlaces } from "./places.ts";
import { loadModes, requireMode } from "../../structure/modes.ts";
import { forAudit, fieldsOf, toColumns } from "./student-fields.ts";
import { StudentIdParam, STUDENT_RECORD_ROLES } from "./student-access.ts";
import { findStudent, searchStudents, staffStudentView, takenByOthers } from "./student-records.ts";

const TAKEN_JUST_NOW =
  "Another student was given that matric number, application number, phone or e-mail a moment ago. Check the record and save again.";

/** The registry's search and record page: find a student, correct the record, lock the biodata. */
export function studentRecordRoutes(deps: ApiDeps) {
  const { db, now } = deps;
  const app = new Hono<ApiEnv>();
  const registry = requireStaff(deps, { roles: STUDENT_RECORD_ROLES });

  app.get("/staff/students", registry, async (c) => {
    const { q, page } = readQuery(c, StudentSearchQuery);
    return c.json(await searchStudents(db, q, page));
  });

  app.get("/staff/students/:id", registry, async (c) => {
    const { id } = readParams(c, StudentIdParam);
    return c.json({ data: await staffStudentView(db, await findStudent(db, id), now()) });
  });

  app.patch("/staff/students/:id", registry, async (c) => {
    const { id } = readParams(c, StudentIdParam);
    const request = await readJson(c, UpdateStudentRequest);
    // Any spelling of a mode on the registry's lists; the list's own is stored (decision 154).
    const modes = await loadModes(db);
    const change = {
      ...request,
      ...(request.study_mode === undefined
        ? {}
        : { study_mode: requireMode(modes, "study", request.study_mode, "study_mode") }),
      ...(request.entry_mode === undefined
        ? {}
        : { entry_mode: requireMode(modes, "entry", request.entry_mode, "entry_mode") }),
    };
    const student = await findStudent(db, id);
    const places = await loadPlaces(db);
    if (change.programme_id !== undefined && !places.programmes.has(change.programme_id)) {
      throw new ApiError(400, "There is no such programme. Choose one from the list.", {
        fields: { programme_id: "Unknown programme." },
      });
    }
    if (change.department_id !== undefined && !places.departments.has(change.department_id)) {
      throw new ApiError(400, "There is no such department. Choose one from the list.", {
        fields: { department_id: "Unknown department." },
      });
    }
    const { matric_no, application_no, phone, email } = change;
    const taken = await takenByOthers(
      db,
      { matric_no, application_no, phone, email: email ?? undefined },
      id,
    );
    const clash = Object.values(taken)[0];
    if (clash) throw new ApiError(409, clash, { fields: taken });

    const diff = changedFields(forAudit(fieldsOf(student), places), forAudit(change, places));
    if (!diff.changed)
      return c.json({
        status: "success",
        message: "Nothing changed: the record already holds these values.",
        data: await staffStudentView(db, student, now()),
      });
    try {
      await db.transaction(async (tx) => {
        await tx
          .update(students)
          .set({ ...toColumns(change), updatedAt: now() })
          .where(eq(students.id, id));
        if ("email" in diff.after) await cancelUnusedResetLinks(tx, [id], now());
        if ("phone" in diff.after) await cancelUnusedResetCodes(tx, [id], now());
        await recordAudit(
          tx,
          {
            staffId: c.var.staff.id,
            action: "student.update",
            entity: "student",
            entityId: id,
            before: diff.before,
            after: diff.after,
          },
          now(),
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError(409, TAKEN_JUST_NOW);
      throw error;
    }
    return c.json({
      status: "success",
      message: "The record is saved.",
      data: await staffStudentView(db, await findStudent(db, id), now()),
    });
  });

  app.post("/staff/students/:id/lock", registry, async (c) => {
    const { id } = readParams(c, StudentIdParam);
    const request = await readJson(c, BiodataLockRequest);
    const student = await findStudent(db, id);
    const reason = request.locked ? request.reason! : null;
    const diff = changedFields(
      { biodata_locked: student.biodataLocked, biodata_lock_reason: student.biodataLockReason },
      { biodata_locked: request.locked, biodata_lock_reason: reason },
    );
    if (diff.changed) {
      await db.transaction(async (tx) => {
        await tx
          .update(students)
          .set({ biodataLocked: request.locked, biodataLockReason: reason, updatedAt: now() })
          .where(eq(students.id, id));
        const action = request.locked ? "student.biodata_lock" : "student.biodata_unlock";
        await recordAudit(
          tx,
          {
            staffId: c.var.staff.id,
            action,
            entity: "student",
            entityId: id,
            before: diff.before,
            after: diff.after,
          },
          now(),
        );
      });
    }
    const message = request.locked
      ? "The biodata is locked. The student sees the reason on their biodata page."
      : "The biodata is unlocked: the student can edit it again.";
    return c.json({
      status: "success",
      message,
      data: await staffStudentView(db, await findStudent(db, id), now()),
    });
  });

  return app;
}
