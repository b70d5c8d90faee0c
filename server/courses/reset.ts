import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { courseRegistrations } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { APPROVED_CANNOT_RESET, semesterLabel } from "../../common/courses/selection.ts";
import type { ResetRequest } from "../../common/courses/requests.ts";
import {
  approvedSemesters,
  assertModifiable,
  findSession,
  withdrawReturns,
} from "./registration-rules.ts";
import { lockStudent } from "../students/student-lock.ts";

/**
 * Removes one semester of the student's registration for a session. The advisor's approval is
 * checked before the session window: it is the reason that still holds when a session reopens.
 */
export async function resetSemester(
  db: Database,
  studentId: number,
  request: ResetRequest,
  now: Date,
) {
  if (request.student_id !== studentId) {
    throw new ApiError(403, "You can only reset your own course registration.");
  }
  const semester = request.semester === "first" ? 1 : 2;
  const sessionName = request.registration_session;
  return db.transaction(async (tx) => {
    await lockStudent(tx, studentId);
    const session = await findSession(tx, sessionName);
    if ((await approvedSemesters(tx, studentId, sessionName)).has(semester)) {
      throw new ApiError(403, APPROVED_CANNOT_RESET);
    }
    assertModifiable(session, now);
    const removed = await tx
      .delete(courseRegistrations)
      .where(
        and(
          eq(courseRegistrations.studentId, studentId),
          eq(courseRegistrations.session, sessionName),
          eq(courseRegistrations.semester, semester),
          request.registration_level === undefined
            ? undefined
            : eq(courseRegistrations.level, request.registration_level),
        ),
      )
      .returning({ id: courseRegistrations.id });
    if (removed.length === 0) {
      throw new ApiError(
        404,
        `You have no ${semesterLabel(semester)} courses registered for ${sessionName}.`,
      );
    }
    await withdrawReturns(tx, studentId, sessionName, [semester]);
    return { removed: removed.length };
  });
}
