import { hashPassword } from "../../server/auth/password.ts";
import type { Database } from "../../server/db/client.ts";
import { insertSchool, insertSessions } from "../../server/db/factories.ts";
import {
  courseMappings,
  courseOfferings,
  courseRegistrations,
  courses,
  departmentHeads,
  offeringLecturers,
  registrationApprovals,
  staff,
  students,
} from "../../server/db/schema.ts";

/** The semester the benchmark enters, approves and publishes. */
export const BENCH_SEMESTER = { session: "2024/2025", semester: 1 } as const;
const LEVELS = [100, 200, 300] as const;
// Rows per INSERT: well under PostgreSQL's 65,535 bind parameters for the widest row here.
const ROWS_AT_ONCE = 2_000;

export type CollegeShape = {
  students: number;
  coursesPerSemester: number;
  /** Departments, each with one programme; a programme's students are spread over the levels. */
  departments: number;
};

/** One course's result to enter: its lecturer, its department's head and the students on it. */
export type OfferingToEnter = {
  offeringId: number;
  lecturerId: number;
  headId: number;
  studentIds: number[];
};

export type BuiltCollege = {
  offerings: OfferingToEnter[];
  programmeIds: number[];
  examsOfficerId: number;
  rows: { students: number; registrations: number };
};

async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += ROWS_AT_ONCE)
    await insert(rows.slice(start, start + ROWS_AT_ONCE));
}

/**
 * A college the size the issue names, written straight into an empty database: the state a
 * semester reaches on the day the exams end. Students are registered for every course of their
 * programme and level and approved by their advisers; each course has an offering with one
 * lecturer; each department a head. Nothing here is measured: it stands in for a semester of
 * registering, which has its own measurements (`npm run load`).
 */
export async function buildCollege(
  db: Database,
  shape: CollegeShape,
  progress: (message: string) => void,
): Promise<BuiltCollege> {
  await insertSessions(db);
  const school = await insertSchool(db, {
    name: "School of Education",
    departments: Array.from({ length: shape.departments }, (_, i) => `Department ${i + 1}`),
    programmes: Array.from({ length: shape.departments }, (_, i) => `NCE Programme ${i + 1}`),
  });
  const staffRows = await db
    .insert(staff)
    .values([
      { name: "Exams Officer", email: "exams@bench.example", roles: ["exams"] },
      ...school.departments.map((_, i) => ({
        name: `Head ${i + 1}`,
        email: `head-${i + 1}@bench.example`,
        roles: ["hod"],
      })),
      ...school.departments.flatMap((_, i) =>
        LEVELS.map((level) => ({
          name: `Lecturer ${i + 1}-${level}`,
          email: `lecturer-${i + 1}-${level}@bench.example`,
          roles: ["lecturer"],
        })),
      ),
    ])
    .returning({ id: staff.id });
  const examsOfficerId = staffRows[0]!.id;
  const headIds = staffRows.slice(1, 1 + shape.departments).map((row) => row.id);
  const lecturerIds = staffRows.slice(1 + shape.departments).map((row) => row.id);
  await db.insert(departmentHeads).values(
    school.departments.map((department, i) => ({
      departmentId: department.id,
      staffId: headIds[i]!,
    })),
  );

  progress(`Writing ${shape.students} students…`);
  // One stored hash for every student: nobody signs in here.
  const passwordHash = await hashPassword("results-bench");
  const groups = school.programmes.flatMap((programme, d) =>
    LEVELS.map((level, l) => ({
      programme,
      department: school.departments[d]!,
      headId: headIds[d]!,
      lecturerId: lecturerIds[d * LEVELS.length + l]!,
      level,
    })),
  );
  const studentRows = Array.from({ length: shape.students }, (_, i) => {
    const group = groups[i % groups.length]!;
    const n = String(i + 1).padStart(6, "0");
    return {
      phone: `0916${String(i + 1).padStart(7, "0")}`,
      email: `bench-${n}@example.com`,
      surname: "Student",
      othername: `Bench ${n}`,
      applicationNo: `APP/BENCH/${n}`,
      matricNo: `NCE/BENCH/${n}`,
      entrySession: "2024/2025",
      entryMode: "UTME",
      studyMode: "Full Time",
      level: group.level,
      departmentId: group.department.id,
      programmeId: group.programme.id,
      passwordHash,
    };
  });
  const studentIdsByGroup = new Map<number, number[]>();
  await insertInChunks(studentRows, async (chunk) => {
    const inserted = await db
      .insert(students)
      .values(chunk)
      .returning({ id: students.id, programmeId: students.programmeId, level: students.level });
    for (const row of inserted) {
      const index = groups.findIndex(
        (group) => group.programme.id === row.programmeId && group.level === row.level,
      );
      studentIdsByGroup.set(index, [...(studentIdsByGroup.get(index) ?? []), row.id]);
    }
  });

  progress(`Writing ${groups.length * shape.coursesPerSemester} courses and their offerings…`);
  const offerings: OfferingToEnter[] = [];
  const registrations: (typeof courseRegistrations.$inferInsert)[] = [];
  for (const [index, group] of groups.entries()) {
    const courseRows = await db
      .insert(courses)
      .values(
        Array.from({ length: shape.coursesPerSemester }, (_, c) => ({
          code: `B${index + 1} ${group.level + c + 1}`,
          title: `Bench course ${c + 1} of group ${index + 1}`,
          unit: 2 + (c % 3),
          semester: BENCH_SEMESTER.semester,
        })),
      )
      .returning({ id: courses.id });
    await db.insert(courseMappings).values(
      courseRows.map((course, c) => ({
        courseId: course.id,
        programmeId: group.programme.id,
        level: group.level,
        semester: BENCH_SEMESTER.semester,
        // Two electives per programme and level, the rest compulsory, as colleges plan them.
        compulsory: c < shape.coursesPerSemester - 2,
      })),
    );
    const offeringRows = await db
      .insert(courseOfferings)
      .values(
        courseRows.map((course) => ({
          courseId: course.id,
          ...BENCH_SEMESTER,
          departmentId: group.department.id,
        })),
      )
      .returning({ id: courseOfferings.id });
    await db
      .insert(offeringLecturers)
      .values(
        offeringRows.map((offering) => ({ offeringId: offering.id, staffId: group.lecturerId })),
      );
    const studentIds = studentIdsByGroup.get(index) ?? [];
    for (const [c, course] of courseRows.entries()) {
      offerings.push({
        offeringId: offeringRows[c]!.id,
        lecturerId: group.lecturerId,
        headId: group.headId,
        studentIds,
      });
      for (const studentId of studentIds)
        registrations.push({
          studentId,
          courseId: course.id,
          ...BENCH_SEMESTER,
          level: group.level,
        });
    }
  }
  progress(`Writing ${registrations.length} course registrations and their approvals…`);
  await insertInChunks(registrations, (chunk) => db.insert(courseRegistrations).values(chunk));
  const approvals = [...studentIdsByGroup.values()].flat().map((studentId) => ({
    studentId,
    ...BENCH_SEMESTER,
    approvedBy: "Course Adviser",
  }));
  await insertInChunks(approvals, (chunk) => db.insert(registrationApprovals).values(chunk));
  return {
    offerings,
    programmeIds: school.programmes.map((programme) => programme.id),
    examsOfficerId,
    rows: { students: studentRows.length, registrations: registrations.length },
  };
}
