import { and, eq, sql } from "drizzle-orm";
import { preparedQuery } from "../db/prepared.ts";
import type { Database, Transaction } from "../db/client.ts";
import { courseMappings, courseOfferings, courseScores, courses, students } from "../db/schema.ts";
import {
  gradeCourse,
  semesterResults,
  type Attempt,
  type CourseScore,
  type GradingScheme,
  type SemesterKey,
  type SemesterResult,
} from "../../common/results/grading.ts";
import { schemesFor } from "./grading-scheme.ts";
import type { CourseResult } from "../../common/results/score-sheets.ts";

export type StudentSemesters = {
  studentId: number;
  semesters: (SemesterResult & { courses: CourseResult[] })[];
};

/**
 * Every graded attempt of these students in offerings at the given states, with what grading
 * needs: the course's units, whether the student's programme has it as compulsory (a course
 * outside the programme's plan is an elective), and the plan's semester for carrying it over.
 */
const attemptsQuery = preparedQuery((db) =>
  db
    .select({
      studentId: courseScores.studentId,
      ca: courseScores.ca,
      exam: courseScores.exam,
      special: courseScores.special,
      session: courseOfferings.session,
      semester: courseOfferings.semester,
      code: courses.code,
      title: courses.title,
      units: courses.unit,
      planSemester: courses.semester,
      // A course may be in the plan at more than one level: compulsory at any is compulsory.
      compulsory: sql<boolean>`coalesce((select bool_or(${courseMappings.compulsory}) from ${courseMappings} where ${courseMappings.courseId} = ${courses.id} and ${courseMappings.programmeId} = ${students.programmeId}), false)`,
    })
    .from(courseScores)
    .innerJoin(courseOfferings, eq(courseOfferings.id, courseScores.offeringId))
    .innerJoin(courses, eq(courses.id, courseOfferings.courseId))
    .innerJoin(students, eq(students.id, courseScores.studentId))
    .where(
      and(
        sql`${courseScores.studentId} = any(${sql.placeholder("studentIds")}::int[])`,
        // The same students again, on their own table: the join says as much, but a generic plan
        // knows only what the conditions say, and without this one it would read every student
        // (17 ms against 0.9 at 20,000 students: docs/measurements/2026-11-28-college-size-20000.md).
        sql`${students.id} = any(${sql.placeholder("studentIds")}::int[])`,
        sql`${courseOfferings.status} = any(${sql.placeholder("states")}::text[])`,
      ),
    )
    // Prepared: a student's results page asks this on every visit (decision 184).
    .prepare("graded_attempts"),
);

async function attemptsOf(db: Database | Transaction, studentIds: number[], states: string[]) {
  if (!studentIds.length) return [];
  return attemptsQuery(db).execute({ studentIds, states });
}

/**
 * Each student's semesters in order, graded and summed by the grading rules (decision 174), from
 * the results at the given states: the exams office computes from approved results, students see
 * what was published. Each attempt is graded by its own session's scheme; GPA, CGPA and standing
 * by the scheme of `schemeSession`.
 */
export async function computeSemesters(
  db: Database | Transaction,
  studentIds: number[],
  options: { states: string[]; schemeSession: string; include?: (key: SemesterKey) => boolean },
): Promise<StudentSemesters[]> {
  const rows = (await attemptsOf(db, studentIds, options.states)).filter(
    (row) => !options.include || options.include(row),
  );
  const schemes = await schemesFor(db, [...rows.map((row) => row.session), options.schemeSession]);
  return gradeSemesters(rows, schemes, studentIds, options.schemeSession);
}

/** One graded attempt's row, as `graded_attempts` reads it. */
export type AttemptRow = Awaited<ReturnType<typeof attemptsOf>>[number];

/**
 * The grading of `computeSemesters`, given the attempts and the schemes already read: a student's
 * results page reads both in the one statement that also reads their fees (decision 184).
 */
export function gradeSemesters(
  rows: readonly AttemptRow[],
  schemes: Map<string, GradingScheme>,
  studentIds: number[],
  schemeSession: string,
): StudentSemesters[] {
  const byStudent = new Map<number, AttemptRow[]>();
  for (const row of rows) {
    // A sheet saved with CA alone has no result yet: it is not an attempt.
    if (row.exam === null && row.special === null) continue;
    byStudent.set(row.studentId, [...(byStudent.get(row.studentId) ?? []), row]);
  }
  return studentIds.map((studentId) => {
    const own = byStudent.get(studentId) ?? [];
    const graded = own.map((row) => {
      const score: CourseScore = row.special
        ? { ca: row.ca, special: row.special as "ABS" | "I" | "S" }
        : { ca: row.ca ?? 0, exam: row.exam! };
      return { row, graded: gradeCourse(schemes.get(row.session)!, score) };
    });
    const attempts: Attempt[] = graded.map(({ row, graded }) => ({
      courseCode: row.code,
      units: row.units,
      session: row.session,
      semester: row.semester,
      compulsory: row.compulsory,
      planSemester: row.planSemester,
      graded,
    }));
    const semesters = semesterResults(schemes.get(schemeSession)!, attempts).map((result) => ({
      ...result,
      courses: graded
        .filter(({ row }) => row.session === result.session && row.semester === result.semester)
        .sort((a, b) => a.row.code.localeCompare(b.row.code))
        .map(({ row, graded }) => ({
          course_code: row.code,
          course_title: row.title,
          units: row.units,
          ca: row.ca,
          exam: row.exam,
          total: graded.total,
          grade: graded.grade,
          point: graded.point,
        })),
    }));
    return { studentId, semesters };
  });
}
