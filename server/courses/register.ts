import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { preparedQuery } from "../db/prepared.ts";
import { courseMappings, courseRegistrations, courses } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { OVER_CAP, refusalToRegister } from "../../common/courses/selection.ts";
import { totalUnits } from "../../common/courses/registration-status.ts";
import type { RegisterRequest } from "../../common/courses/requests.ts";
import {
  approvedSemesters,
  assertModifiable,
  findSession,
  frozenSemesterError,
  registeredUnits,
  withdrawReturns,
} from "./registration-rules.ts";
import { lockStudent } from "../students/student-lock.ts";
import { carryOversFor } from "./carry-overs.ts";
import {
  carryOverPlan,
  CARRY_OVERS_FIRST,
  missingCarryOverMessage,
  missingCarryOvers,
} from "../../common/courses/carry-overs.ts";

type Registrant = { id: number; programmeId: number; level: number };

/**
 * Registers courses for the signed-in student in one transaction: the session must be open, each
 * course offered to the student's programme at the level or one of the student's carry-overs,
 * none registered before, no approved semester touched, the semester's required carry-overs
 * included (decision 180), and the session's units must stay within the cap.
 */
export async function registerCourses(
  db: Database,
  student: Registrant,
  request: RegisterRequest,
  now: Date,
) {
  const { session: sessionName, registration_level: level } = request;
  if (level > student.level) {
    throw new ApiError(
      400,
      `You are in ${student.level} level; you cannot register ${level} level courses.`,
      {
        fields: { registration_level: `Choose ${student.level} level or below.` },
      },
    );
  }
  // Published results do not change with registrations: read before the student's lock, so the
  // lock is held no longer than before.
  const carryOvers = await carryOversFor(db, student, sessionName);
  return db.transaction(async (tx) => {
    const ids = [...new Set(request.courses)];
    // The courses before the student, as the registry's unit changes lock them (decision 142): a
    // change waits for this registration, or this registration reads the units it wrote.
    const known = await coursesWithIds(tx).execute({ ids });
    await lockStudent(tx, student.id);
    assertModifiable(await findSession(tx, sessionName), now);

    const unknown = ids.find((id) => !known.some((course) => course.id === id));
    if (unknown !== undefined) throw new ApiError(400, `There is no course with id ${unknown}.`);

    const offered = await offeredAmong(tx).execute({
      programmeId: student.programmeId,
      level,
      ids,
    });
    const adding = request.courses.map((id) => {
      const course = known.find((row) => row.id === id)!;
      const mapping = offered.find((row) => row.courseId === id);
      // A carry-over is registered with this level's courses, in its own semester.
      const carried = carryOvers.find((row) => row.course_id === id);
      if (!mapping && carried) {
        return { course_id: id, code: course.code, unit: course.unit, semester: carried.semester };
      }
      if (!mapping) {
        throw new ApiError(
          400,
          `${course.code} is not offered to your programme at ${level} level.`,
        );
      }
      return {
        course_id: id,
        code: course.code,
        unit: course.unit,
        semester: mapping.semester === 2 ? 2 : 1,
      } as const;
    });

    const approved = await approvedSemesters(tx, student.id, sessionName);
    const frozen = adding.find((course) => approved.has(course.semester));
    if (frozen) throw frozenSemesterError(frozen.semester, sessionName);

    const registered = await registeredUnits(tx).execute({
      studentId: student.id,
      session: sessionName,
    });
    const refused = refusalToRegister(registered, adding);
    if (refused?.refusal === "duplicate") {
      const before = registered.some((row) => row.course_id === refused.course.course_id);
      const message = before
        ? `${refused.course.code} is already registered for ${sessionName}.`
        : `${refused.course.code} is listed twice; register each course once.`;
      throw new ApiError(409, message);
    }
    const plan = carryOverPlan(carryOvers, registered, approved);
    const missing = missingCarryOvers(plan, adding);
    if (missing.length > 0) {
      throw new ApiError(409, missingCarryOverMessage(missing), {
        fields: {
          courses: `Carry-overs to add: ${missing.map((course) => course.code).join(", ")}.`,
        },
      });
    }
    if (refused?.refusal === "over-cap") {
      const units = `You have ${totalUnits(registered)} units registered for ${sessionName}; these courses add ${totalUnits(adding)}.`;
      const carrying = plan.some(
        (course) =>
          course.state === "required" &&
          adding.some((added) => added.course_id === course.course_id),
      );
      throw new ApiError(409, OVER_CAP, {
        fields: { courses: carrying ? `${units} ${CARRY_OVERS_FIRST}` : units },
      });
    }

    await tx.insert(courseRegistrations).values(
      adding.map((course) => ({
        studentId: student.id,
        courseId: course.course_id,
        session: sessionName,
        level,
        semester: course.semester,
      })),
    );
    await withdrawReturns(
      tx,
      student.id,
      sessionName,
      adding.map((course) => course.semester),
    );
    return { registered: adding.length, units: totalUnits(registered) + totalUnits(adding) };
  });
}

// A list of ids is one array parameter, so one prepared statement serves any number of courses.
const idsIn = (column: typeof courses.id | typeof courseMappings.courseId) =>
  sql`${column} = any(${sql.placeholder("ids")}::integer[])`;

/** The courses with these ids, locked in id order so that units cannot change under the cap check. */
const coursesWithIds = preparedQuery((db) =>
  db
    .select()
    .from(courses)
    .where(idsIn(courses.id))
    .orderBy(courses.id)
    .for("share")
    .prepare("courses_with_ids"),
);

/** Which of the courses are offered to a programme at a level, and in which semester. */
const offeredAmong = preparedQuery((db) =>
  db
    .select({ courseId: courseMappings.courseId, semester: courseMappings.semester })
    .from(courseMappings)
    .where(
      and(
        eq(courseMappings.programmeId, sql.placeholder("programmeId")),
        eq(courseMappings.level, sql.placeholder("level")),
        idsIn(courseMappings.courseId),
      ),
    )
    .prepare("courses_offered_among"),
);
