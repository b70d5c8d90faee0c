import { and, asc, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import {
  courseOfferings,
  courseRegistrations,
  courseScores,
  courses,
  departmentHeads,
  departments,
  offeringLecturers,
  registrationApprovals,
  resultPublications,
  staff,
  students,
} from "../db/schema.ts";
import { insertStudent } from "../db/factories.ts";
import { unusablePasswordHash } from "../auth/password.ts";

/**
 * Demo results (issue 32): Chiamaka's 100-level first semester (2023/2024) entered by the demo
 * lecturer, approved by the Biology head and published, with one compulsory course failed so her
 * next registration has a carry-over; and one 2024/2025 course still being entered. Marks are
 * fixed, so the demo reads the same every time.
 */
export async function seedDemoResults(db: Database) {
  const byEmail = async (email: string) =>
    (await db.select().from(staff).where(eq(staff.email, email)))[0];
  const [lecturer, head, exams] = await Promise.all([
    byEmail("lecturer@college.example"),
    byEmail("hod@college.example"),
    byEmail("exams@college.example"),
  ]);
  const [biology] = await db.select().from(departments).where(eq(departments.name, "Biology"));
  const [chiamaka] = await db.select().from(students).where(eq(students.phone, "08030000001"));
  if (!lecturer || !head || !exams || !biology || !chiamaka) return;
  await db.insert(departmentHeads).values({ departmentId: biology.id, staffId: head.id });

  const taken = await db
    .select({ id: courses.id, code: courses.code })
    .from(courseRegistrations)
    .innerJoin(courses, eq(courses.id, courseRegistrations.courseId))
    .where(
      and(
        eq(courseRegistrations.studentId, chiamaka.id),
        eq(courseRegistrations.session, "2023/2024"),
        eq(courseRegistrations.semester, 1),
      ),
    )
    .orderBy(asc(courses.code));
  // CA and exam per course, in course-code order, repeated as needed; the third course is the
  // one she failed.
  const PASSES: [number, number][] = [
    [32, 41],
    [28, 35],
    [30, 38],
    [25, 30],
    [35, 44],
    [22, 26],
    [27, 33],
  ];
  const FAILED: [number, number] = [14, 19];
  const submitted = new Date("2024-02-20T10:00:00Z");
  const approved = new Date("2024-02-27T12:00:00Z");
  for (const [index, course] of taken.entries()) {
    const [offering] = await db
      .insert(courseOfferings)
      .values({
        courseId: course.id,
        session: "2023/2024",
        semester: 1,
        departmentId: biology.id,
        status: "approved",
        submittedAt: submitted,
        submittedBy: lecturer.id,
        approvedAt: approved,
        approvedBy: head.id,
      })
      .returning();
    await db.insert(offeringLecturers).values({ offeringId: offering!.id, staffId: lecturer.id });
    const [ca, exam] = index === 2 ? FAILED : PASSES[index % PASSES.length]!;
    await db.insert(courseScores).values({
      offeringId: offering!.id,
      studentId: chiamaka.id,
      ca,
      exam,
      enteredBy: lecturer.id,
      updatedAt: submitted,
    });
  }
  await db.insert(resultPublications).values({
    programmeId: chiamaka.programmeId,
    session: "2023/2024",
    semester: 1,
    boardMeetingOn: "2024-03-14",
    minuteReference: "AB/2024/03/5",
    publishedBy: exams.id,
    publishedAt: new Date("2024-03-15T09:00:00Z"),
  });

  // This semester, still with its lecturer: a 200-level course of her programme.
  const [current] = await db
    .select({ id: courses.id })
    .from(courses)
    .where(eq(courses.semester, 1))
    .orderBy(asc(courses.code))
    .limit(1);
  if (!current) return;
  const [open] = await db
    .insert(courseOfferings)
    .values({ courseId: current.id, session: "2024/2025", semester: 1, departmentId: biology.id })
    .onConflictDoNothing()
    .returning();
  if (!open) return;
  await db.insert(offeringLecturers).values({ offeringId: open.id, staffId: lecturer.id });
  await seedOpenClass(db, { courseId: current.id, programmeId: chiamaka.programmeId, biology });
}

/**
 * The open course's class: 100-level students of Chiamaka's programme whose 2024/2025 first
 * semester the adviser approved, so the demo lecturer has a roster to score. They have no e-mail
 * address and no usable password: they are names on a mark sheet, not accounts to sign in with.
 */
const OPEN_CLASS = [
  ["Abubakar", "Sadiq Tanko"],
  ["Eze", "Chinonso Mary"],
  ["Ogunleye", "Tolulope Ayo"],
  ["Danjuma", "Hauwa Ladi"],
  ["Nnamdi", "Kelechi Paul"],
] as const;

async function seedOpenClass(
  db: Database,
  options: { courseId: number; programmeId: number; biology: { id: number } },
) {
  for (const [index, [surname, othername]] of OPEN_CLASS.entries()) {
    const number = String(101 + index).padStart(4, "0");
    const student = await insertStudent(db, {
      surname,
      othername,
      email: null,
      matricNo: `CCE/2024/BIO/${number}`,
      applicationNo: `APP/2024/00${number}`,
      departmentId: options.biology.id,
      programmeId: options.programmeId,
      entrySession: "2024/2025",
      level: 100,
      passwordHash: unusablePasswordHash(),
    });
    await db.insert(courseRegistrations).values({
      studentId: student.id,
      courseId: options.courseId,
      session: "2024/2025",
      level: 100,
      semester: 1,
      createdAt: new Date("2024-11-18T09:00:00Z"),
    });
    await db.insert(registrationApprovals).values({
      studentId: student.id,
      session: "2024/2025",
      semester: 1,
      approvedBy: "Dr. Musa Abdullahi",
      approvedAt: new Date("2024-11-25T10:00:00Z"),
    });
  }
}
