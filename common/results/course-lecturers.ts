import { z } from "zod";
import { Semester } from "../courses/advising.ts";
import { SessionName } from "../academic-sessions/sessions.ts";
import { RESULT_STATUSES, ScoreSheet, type LecturerOffering } from "./score-sheets.ts";

/**
 * A score file's first line. A special mark (ABS, I, S) goes in the exam column, as on the paper
 * mark sheets lecturers copy from; an empty exam cell is "not sat yet".
 */
export const SCORE_FILE_COLUMNS = ["matric_no", "ca", "exam"] as const;

/** GET /staff/results/offerings: the registry's list, for one session and semester. */
export const OfferingListQuery = z.object({ session: SessionName, semester: Semester });

const Person = z.object({ id: z.number(), name: z.string() });

/** What the registry's "Course lecturers" page shows and chooses from. */
export const CourseLecturers = z.object({
  offerings: z.array(
    z.object({
      id: z.number(),
      course_id: z.number(),
      course_code: z.string(),
      course_title: z.string(),
      session: z.string(),
      semester: z.number(),
      department_id: z.number(),
      department: z.string(),
      status: z.enum(RESULT_STATUSES),
      lecturers: z.array(Person),
    }),
  ),
  /** Active accounts holding the lecturer role: who may be assigned. */
  lecturers: z.array(Person),
  /** Active accounts holding the head-of-department role. */
  hod_candidates: z.array(Person),
  departments: z.array(z.object({ id: z.number(), name: z.string(), head: Person.nullable() })),
});
export type CourseLecturers = z.infer<typeof CourseLecturers>;

/** GET /staff/results/teaching, as the lecturer's list of courses reads it. */
export const TeachingList = z.array(
  ScoreSheet.shape.offering.extend({ students: z.number(), entered: z.number() }),
) satisfies z.ZodType<LecturerOffering[]>;

/** PUT /staff/results/offerings/{id}/scores: the sent rows as graded after the save. */
export type SavedScores = { message: string; data: { rows: ScoreSheet["rows"] } };
