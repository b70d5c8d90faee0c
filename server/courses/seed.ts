import { and, asc, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import {
  courseMappings,
  courseRegistrations,
  courses,
  programmes,
  registrationApprovals,
  students,
} from "../db/schema.ts";
import { CATALOGUE, GENERAL_SUBJECTS, PROGRAMME_SUBJECTS } from "./catalogue-data.ts";

const LEVELS = [100, 200, 300, 400, 500];

/** Every course of the demo catalogue, with its code built from subject, level, semester and slot. */
function catalogueCourses() {
  return Object.entries(CATALOGUE).flatMap(([subject, { units, groups }]) =>
    groups.flatMap((titles, group) => {
      const level = LEVELS[Math.floor(group / 2)]!;
      const semester = (group % 2) + 1;
      return titles.map((title, slot) => ({
        subject,
        level,
        code: `${subject} ${level / 100}${semester}${slot + 1}`,
        title,
        unit: units[slot]!,
        semester,
      }));
    }),
  );
}

/**
 * Inserts the catalogue and maps it to the named programmes that exist (GSE and EDU to all of
 * them, teaching subjects to their own). Tests call it too, for the programmes they create.
 */
export async function insertCatalogue(db: Database) {
  const entries = catalogueCourses();
  const rows = await db
    .insert(courses)
    .values(entries.map(({ code, title, unit, semester }) => ({ code, title, unit, semester })))
    .returning();
  const idByCode = new Map(rows.map((row) => [row.code, row.id]));
  const known = await db.select().from(programmes);
  const mappings = known.flatMap((programme) => {
    const subjects = [...GENERAL_SUBJECTS, ...(PROGRAMME_SUBJECTS[programme.name] ?? [])];
    return entries
      .filter((entry) => subjects.includes(entry.subject))
      .map((entry) => ({
        courseId: idByCode.get(entry.code)!,
        programmeId: programme.id,
        level: entry.level,
        semester: entry.semester,
      }));
  });
  if (mappings.length > 0) await db.insert(courseMappings).values(mappings);
  return rows;
}

const ADVISOR = "Dr. Funmilayo Adeyemi";
const HISTORY_SESSION = "2023/2024";

/**
 * The demo catalogue, plus one earlier session for a returning student: registered at 100 level
 * in 2023/2024 for both semesters and approved by the Course Advisor, so history and the refused
 * reset can be seen.
 */
export async function seedCourses(db: Database, options: { approvedHistoryFor: string }) {
  await insertCatalogue(db);
  const [student] = await db
    .select()
    .from(students)
    .where(eq(students.phone, options.approvedHistoryFor));
  if (!student) return;
  const offered = await db
    .select({ id: courses.id, code: courses.code, semester: courseMappings.semester })
    .from(courseMappings)
    .innerJoin(courses, eq(courses.id, courseMappings.courseId))
    .where(and(eq(courseMappings.programmeId, student.programmeId), eq(courseMappings.level, 100)))
    .orderBy(asc(courses.code));
  // All first-semester courses, and the second semester without each subject's last course (75 units).
  const isLastSlot = (code: string) =>
    Number(code.at(-1)) === CATALOGUE[code.slice(0, 3)]!.units.length;
  const chosen = offered.filter((course) => course.semester === 1 || !isLastSlot(course.code));
  await db.insert(courseRegistrations).values(
    chosen.map((course) => ({
      studentId: student.id,
      courseId: course.id,
      session: HISTORY_SESSION,
      level: 100,
      semester: course.semester,
      createdAt: new Date(course.semester === 1 ? "2023-11-20T09:30:00Z" : "2024-03-25T10:00:00Z"),
    })),
  );
  await db.insert(registrationApprovals).values([
    {
      studentId: student.id,
      session: HISTORY_SESSION,
      semester: 1,
      approvedBy: ADVISOR,
      approvedAt: new Date("2023-12-04T10:15:00Z"),
    },
    {
      studentId: student.id,
      session: HISTORY_SESSION,
      semester: 2,
      approvedBy: ADVISOR,
      approvedAt: new Date("2024-04-15T11:00:00Z"),
    },
  ]);
}
