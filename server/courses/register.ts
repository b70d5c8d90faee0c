import { eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { preparedQuery } from "../db/prepared.ts";
import {
  courseRegistrations,
  courses,
  registrationResubmissions,
  registrationReturns,
  students,
} from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { OVER_CAP, refusalToRegister } from "../../common/courses/selection.ts";
import { totalUnits } from "../../common/courses/registration-status.ts";
import type { RegisterRequest } from "../../common/courses/requests.ts";
import { assertModifiable, frozenSemesterError, noSuchSession } from "./registration-rules.ts";
import { lockStudent } from "../students/student-lock.ts";
import { carryOversFor } from "./carry-overs.ts";
import { gradePublishedRecord, publishedRecordColumns } from "../results/published-record.ts";
import type { RegistrationWindow } from "../../common/courses/registration-window.ts";
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
  return db.transaction(async (tx) => {
    const ids = [...new Set(request.courses)];
    // The courses before the student, as the registry's unit changes lock them (decision 142): a
    // change waits for this registration, or this registration reads the units it wrote.
    const known = await coursesWithIds(tx).execute({ ids });
    await lockStudent(tx, student.id);
    // Everything else the rules go by in one statement, after the locks: a registration of the
    // same student that committed meanwhile is counted (decision 204).
    const [rules] = await rulesRead(tx).execute({
      studentId: student.id,
      session: sessionName,
      programmeId: student.programmeId,
      level,
      ids,
    });
    if (!rules) throw new Error(`There is no student ${student.id} to register courses for.`);
    if (!rules.session) throw noSuchSession(sessionName);
    assertModifiable(rules.session, now);

    const unknown = ids.find((id) => !known.some((course) => course.id === id));
    if (unknown !== undefined) throw new ApiError(400, `There is no course with id ${unknown}.`);

    const carryOvers = await carryOversFor(
      tx,
      student,
      sessionName,
      gradePublishedRecord(rules, student.id),
    );
    const offered = rules.offered;
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

    const approved = new Set(rules.approved);
    const frozen = adding.find((course) => approved.has(course.semester));
    if (frozen) throw frozenSemesterError(frozen.semester, sessionName);

    const registered = rules.registered;
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

    await insertRegistrations(tx, { studentId: student.id, session: sessionName, level }, adding);
    return { registered: adding.length, units: totalUnits(registered) + totalUnits(adding) };
  });
}

// A list of ids is one array parameter, so one prepared statement serves any number of courses.
const idsIn = (column: typeof courses.id) =>
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

const param = {
  studentId: sql.placeholder("studentId"),
  session: sql.placeholder("session"),
  programmeId: sql.placeholder("programmeId"),
  level: sql.placeholder("level"),
  ids: sql.placeholder("ids"),
};

/**
 * What the rules go by besides the courses, as columns of the student's row (decision 204), one
 * round trip instead of five: the session's registration window (null: no such session); which
 * of the courses are offered to the programme at the level, and in which semester; the semesters
 * the Course Advisor approved; the courses registered in the session with their units (as
 * `registered_units` reads them); and the published record the carry-overs come from (as
 * `published_record_for_registration` reads it). Written as SQL, as `registration_record` is:
 * these subqueries join tables that share column names.
 */
const rulesRead = preparedQuery((db) =>
  db
    .select({
      session: sql<RegistrationWindow | null>`(
        select json_build_object('name', s.name, 'courseModifiable', s.course_modifiable,
          'registrationOpensOn', s.registration_opens_on, 'registrationClosesOn', s.registration_closes_on)
        from academic_sessions s where s.name = ${param.session})`,
      offered: sql<{ courseId: number; semester: number }[]>`coalesce((
        select json_agg(json_build_object('courseId', m.course_id, 'semester', m.semester))
        from course_mappings m
        where m.programme_id = ${param.programmeId} and m.level = ${param.level}
          and m.course_id = any(${param.ids}::integer[])
      ), '[]'::json)`,
      approved: sql<number[]>`coalesce((
        select json_agg(a.semester) from registration_approvals a
        where a.student_id = ${param.studentId} and a.session = ${param.session}
      ), '[]'::json)`,
      registered: sql<{ course_id: number; unit: number; semester: number }[]>`coalesce((
        select json_agg(json_build_object('course_id', r.course_id, 'unit', c.unit, 'semester', r.semester))
        from course_registrations r join courses c on c.id = r.course_id
        where r.student_id = ${param.studentId} and r.session = ${param.session}
      ), '[]'::json)`,
      ...publishedRecordColumns,
    })
    .from(students)
    .where(eq(students.id, param.studentId))
    .prepare("registration_rules"),
);

/**
 * Registers the courses, and withdraws the Course Advisor's returns of their semesters: a
 * returned semester the student changed is pending again, marked as changed since the return
 * (decision 159), as `withdrawReturns` does. One statement (decision 204).
 */
async function insertRegistrations(
  tx: Transaction,
  where: { studentId: number; session: string; level: number },
  adding: readonly { course_id: number; semester: 1 | 2 }[],
) {
  const { studentId, session, level } = where;
  const courseIds = adding.map((course) => course.course_id);
  const semesters = adding.map((course) => course.semester);
  await tx.execute(sql`
    with registered as (
      insert into ${courseRegistrations} (student_id, course_id, session, level, semester)
      select ${studentId}::integer, course_id, ${session}::text, ${level}::integer, semester
      from unnest(${sql.param(courseIds)}::integer[], ${sql.param(semesters)}::integer[]) as t(course_id, semester)
    ),
    withdrawn as (
      delete from ${registrationReturns}
      where student_id = ${studentId} and session = ${session}
        and semester = any(${sql.param(semesters)}::integer[])
      returning semester
    )
    insert into ${registrationResubmissions} (student_id, session, semester)
    select ${studentId}::integer, ${session}::text, semester from withdrawn
    on conflict do nothing`);
}
