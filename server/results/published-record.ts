import { getTableName, sql } from "drizzle-orm";
import { CasingCache } from "drizzle-orm/casing";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { DATABASE_CASING } from "../db/client.ts";
import {
  courseMappings,
  courseOfferings,
  courseScores,
  courses,
  gradingSchemes,
  resultPublications,
  students,
} from "../db/schema.ts";
import type { GradingScheme } from "../../common/results/grading.ts";
import { gradeSemesters, type AttemptRow, type StudentSemesters } from "./semester-results.ts";
import { schemesFrom } from "./grading-scheme.ts";

/**
 * A column named with its table: drizzle leaves the table out in a query over one table, which
 * the subqueries below, over several, cannot have. Named as the database's casing names it.
 */
const casing = new CasingCache(DATABASE_CASING);
export const q = (column: AnyPgColumn) =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(casing.getColumnCasing(column))}`;

type RecordAttempt = Omit<AttemptRow, "studentId">;

/**
 * A student's published record as columns of a read of their `students` row (decision 184): the
 * semesters published for their programme, their graded attempts in those semesters (as
 * `graded_attempts` reads them) and the college's grading schemes. Read together in one statement
 * instead of three one after another: the results page, and registration's carry-overs, which a
 * student's picker, registration, registered page and slip each ask for (decision 195).
 */
export const publishedRecordColumns = {
  published: sql<[string, number][]>`(
    select coalesce(json_agg(json_build_array(${q(resultPublications.session)}, ${q(resultPublications.semester)})), '[]')
    from ${resultPublications} where ${q(resultPublications.programmeId)} = ${q(students.programmeId)})`,
  attempts: sql<RecordAttempt[]>`(
    select coalesce(json_agg(json_build_object(
      'ca', ${q(courseScores.ca)}, 'exam', ${q(courseScores.exam)}, 'special', ${q(courseScores.special)},
      'session', ${q(courseOfferings.session)}, 'semester', ${q(courseOfferings.semester)},
      'code', ${q(courses.code)}, 'title', ${q(courses.title)}, 'units', ${q(courses.unit)},
      'planSemester', ${q(courses.semester)},
      'compulsory', coalesce((select bool_or(${q(courseMappings.compulsory)}) from ${courseMappings}
        where ${q(courseMappings.courseId)} = ${q(courses.id)} and ${q(courseMappings.programmeId)} = ${q(students.programmeId)}), false))), '[]')
    from ${courseScores}
    join ${courseOfferings} on ${q(courseOfferings.id)} = ${q(courseScores.offeringId)}
    join ${courses} on ${q(courses.id)} = ${q(courseOfferings.courseId)}
    where ${q(courseScores.studentId)} = ${q(students.id)}
      and ${q(courseOfferings.status)} in ('approved', 'published')
      and exists (select 1 from ${resultPublications}
        where ${q(resultPublications.programmeId)} = ${q(students.programmeId)}
          and ${q(resultPublications.session)} = ${q(courseOfferings.session)}
          and ${q(resultPublications.semester)} = ${q(courseOfferings.semester)}))`,
  schemes: sql<{ fromSession: string; scheme: GradingScheme }[]>`(
    select coalesce(json_agg(json_build_object('fromSession', ${q(gradingSchemes.fromSession)}, 'scheme', ${q(gradingSchemes.scheme)})
      order by ${q(gradingSchemes.fromSession)} desc), '[]')
    from ${gradingSchemes})`,
};

/** What `publishedRecordColumns` read for one student. */
export type PublishedRecordRead = {
  published: [string, number][];
  attempts: RecordAttempt[];
  schemes: { fromSession: string; scheme: GradingScheme }[];
};

/**
 * The student's published semesters graded, oldest first, with GPA, CGPA, standing and
 * carry-overs; GPA and standing by the scheme of the newest published session. None published:
 * none.
 */
export function gradePublishedRecord(
  record: PublishedRecordRead,
  studentId: number,
): StudentSemesters["semesters"] {
  const newest = record.published
    .map(([session]) => session)
    .sort()
    .at(-1);
  if (!newest) return [];
  const attempts = record.attempts.map((attempt) => ({ ...attempt, studentId }));
  const schemes = schemesFrom(record.schemes, [
    ...attempts.map((attempt) => attempt.session),
    newest,
  ]);
  const [computed] = gradeSemesters(attempts, schemes, [studentId], newest);
  return computed!.semesters;
}
