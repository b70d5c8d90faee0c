import { eq, inArray, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.ts";
import { preparedQuery } from "../db/prepared.ts";
import { courses, students } from "../db/schema.ts";
import { gradePublishedRecord, publishedRecordColumns } from "../results/published-record.ts";
import type { SemesterResult } from "../../common/results/grading.ts";
import type { Course } from "../../common/courses/registered-course.ts";
import type { CarryOverCourse } from "../../common/courses/carry-overs.ts";

type Student = { id: number; programmeId: number };

const publishedRecordRead = preparedQuery((db) =>
  db
    .select(publishedRecordColumns)
    .from(students)
    .where(eq(students.id, sql.placeholder("studentId")))
    .prepare("published_record_for_registration"),
);

/**
 * The student's semesters as published for their programme, oldest first, with GPA, CGPA,
 * standing and carry-overs (decision 176): what registration and the adviser go by. A result the
 * exams office has not published, or a semester not yet published, counts for nothing here.
 * One statement (decision 195): a student's registration asks for it four times.
 */
export async function publishedRecord(
  db: Database | Transaction,
  student: Student,
): Promise<SemesterResult[]> {
  const [record] = await publishedRecordRead(db).execute({ studentId: student.id });
  return record ? gradePublishedRecord(record, student.id) : [];
}

/** A carry-over with what the picker and the slip show of it. */
export type CarryOverCourseRow = CarryOverCourse & Course;

/**
 * The compulsory courses a registration in `session` must take again: failed in a published
 * semester of an earlier session and not passed since (decision 174's rule), oldest first. A
 * course failed in the session itself is taken again in a later one: its semester has gone by.
 */
export async function carryOversFor(
  db: Database | Transaction,
  student: Student,
  session: string,
  record?: SemesterResult[],
): Promise<CarryOverCourseRow[]> {
  const semesters = record ?? (await publishedRecord(db, student));
  const before = semesters.filter((each) => each.session < session).at(-1);
  if (!before?.carryOvers.length) return [];
  const codes = before.carryOvers.map((each) => each.courseCode);
  const rows = await db.select().from(courses).where(inArray(courses.code, codes));
  return before.carryOvers.flatMap(({ courseCode, planSemester }) => {
    const row = rows.find((each) => each.code === courseCode);
    if (!row) return [];
    const semester = planSemester === 2 ? 2 : 1;
    return [
      {
        id: row.id,
        course_id: row.id,
        code: row.code,
        title: row.title,
        unit: String(row.unit),
        semester,
        carry_over: true,
      } satisfies CarryOverCourseRow,
    ];
  });
}
