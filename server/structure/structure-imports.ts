import { inArray } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { courseMappings, courses, faculties, programmes, departments } from "../db/schema.ts";
import {
  defaultFinalLevel,
  nameKey,
  readCourseCode,
  readLevel,
  readName,
  readSemester,
  readUnit,
} from "../../common/structure/structure-cells.ts";
import type { IMPORT_HEADERS, ImportKind } from "../../common/structure/structure.ts";
import type { CsvRow } from "../csv/csv-file.ts";
import { createRowChecker, plannedRow, type ImportPlan, type PlannedRow } from "./import-plan.ts";
import { lockCourses, unitChangeRefusals, type UnitChange } from "./course-units.ts";
import {
  saveCourse,
  saveDepartment,
  saveFaculty,
  saveMapping,
  saveProgramme,
} from "./structure-writes.ts";

type Rows<Kind extends ImportKind> = CsvRow<(typeof IMPORT_HEADERS)[Kind][number]>[];

const byName = <Row extends { name: string }>(rows: Row[]) =>
  new Map(rows.map((row) => [nameKey(row.name), row]));

async function planFaculties(tx: Transaction, rows: Rows<"faculties">): Promise<ImportPlan> {
  const check = createRowChecker();
  const existing = byName(await tx.select().from(faculties));
  const planned: PlannedRow[] = [];
  for (const { row, values } of rows) {
    const name = check.read(row, "name", readName(values.name, "faculty name"));
    if (name === undefined || !check.firstTime(row, "name", nameKey(name), `The faculty "${name}"`))
      continue;
    planned.push(plannedRow(existing.get(nameKey(name)), { name }, saveFaculty));
  }
  return { planned, rejected: check.rejected };
}

const unknownFaculty = (name: string) =>
  `There is no faculty named "${name}". Import or add the faculty first, or check the spelling.`;

/** Departments and programmes share a shape: a name under a faculty. */
function planUnderFaculty(what: "department" | "programme") {
  return async (tx: Transaction, rows: Rows<"departments">): Promise<ImportPlan> => {
    const check = createRowChecker();
    const facultyByName = byName(await tx.select().from(faculties));
    const existing = byName(
      what === "department"
        ? await tx.select().from(departments)
        : await tx.select().from(programmes),
    );
    const planned: PlannedRow[] = [];
    for (const { row, values } of rows) {
      const name = check.read(row, "name", readName(values.name, `${what} name`));
      const faculty = facultyByName.get(nameKey(values.faculty));
      if (!faculty) check.refuse(row, "faculty", unknownFaculty(values.faculty));
      if (
        name === undefined ||
        !faculty ||
        !check.firstTime(row, "name", nameKey(name), `The ${what} "${name}"`)
      )
        continue;
      const found = existing.get(nameKey(name));
      if (what === "department") {
        planned.push(plannedRow(found, { name, facultyId: faculty.id }, saveDepartment));
      } else {
        // A programme's final level is set on its own form; a new one starts from the usual length.
        const finalLevel =
          found && "finalLevel" in found ? Number(found.finalLevel) : defaultFinalLevel(name);
        planned.push(plannedRow(found, { name, facultyId: faculty.id, finalLevel }, saveProgramme));
      }
    }
    return { planned, rejected: check.rejected };
  };
}

async function planCourses(tx: Transaction, rows: Rows<"courses">): Promise<ImportPlan> {
  const check = createRowChecker();
  // The file's courses are locked before they are compared: a unit change is checked against the
  // registrations of them, and no student may register one between the check and the write.
  const codes = rows.flatMap(({ values }) => {
    const cell = readCourseCode(values.code);
    return "value" in cell ? [cell.value] : [];
  });
  const existing = new Map(
    (await lockCourses(tx, inArray(courses.code, codes))).map((course) => [course.code, course]),
  );
  const accepted: { row: number; planned: PlannedRow; change?: UnitChange }[] = [];
  for (const { row, values } of rows) {
    const code = check.read(row, "code", readCourseCode(values.code));
    const title = check.read(row, "title", readName(values.title, "course title", 200));
    const unit = check.read(row, "unit", readUnit(values.unit));
    const semester = check.read(row, "semester", readSemester(values.semester));
    if (code === undefined || !check.firstTime(row, "code", code, code)) continue;
    if (title === undefined || unit === undefined || semester === undefined) continue;
    const found = existing.get(code);
    accepted.push({
      row,
      planned: plannedRow(found, { code, title, unit, semester }, saveCourse),
      ...(found && { change: { course: found, unit } }),
    });
  }
  // Checked together: two rows of one file may change courses the same student holds.
  const refusals = await unitChangeRefusals(
    tx,
    accepted.flatMap(({ change }) => (change ? [change] : [])),
  );
  const refusalOf = ({ change }: (typeof accepted)[number]) =>
    change && refusals.get(change.course.id);
  for (const entry of accepted) {
    const refusal = refusalOf(entry);
    if (refusal) check.refuse(entry.row, "unit", refusal);
  }
  return {
    planned: accepted.filter((entry) => !refusalOf(entry)).map((entry) => entry.planned),
    rejected: check.rejected.toSorted((a, b) => a.row - b.row),
  };
}

async function planMappings(tx: Transaction, rows: Rows<"course-mappings">): Promise<ImportPlan> {
  const check = createRowChecker();
  const courseByCode = new Map(
    (await tx.select().from(courses)).map((course) => [course.code, course]),
  );
  const programmeByName = byName(await tx.select().from(programmes));
  const existing = new Map(
    (await tx.select().from(courseMappings)).map((m) => [
      `${m.courseId}:${m.programmeId}:${m.level}`,
      m,
    ]),
  );
  const planned: PlannedRow[] = [];
  for (const { row, values } of rows) {
    const code = check.read(row, "course_code", readCourseCode(values.course_code));
    const course = code === undefined ? undefined : courseByCode.get(code);
    if (code !== undefined && !course)
      check.refuse(
        row,
        "course_code",
        `There is no course ${code}. Import or add the course first.`,
      );
    const programme = programmeByName.get(nameKey(values.programme));
    if (!programme)
      check.refuse(
        row,
        "programme",
        `There is no programme named "${values.programme}". Check the spelling against the programmes list.`,
      );
    const level = check.read(row, "level", readLevel(values.level));
    const semester = check.read(row, "semester", readSemester(values.semester));
    if (!course || !programme || level === undefined || semester === undefined) continue;
    const key = `${course.id}:${programme.id}:${level}`;
    if (
      !check.firstTime(
        row,
        "course_code",
        key,
        `${course.code} for ${programme.name} at ${level} level`,
      )
    )
      continue;
    planned.push(
      plannedRow(
        existing.get(key),
        { courseId: course.id, programmeId: programme.id, level, semester },
        saveMapping,
      ),
    );
  }
  return { planned, rejected: check.rejected };
}

/** How each import checks its rows against the database (decision 083). */
export const IMPORT_PLANNERS: {
  [Kind in ImportKind]: (tx: Transaction, rows: Rows<Kind>) => Promise<ImportPlan>;
} = {
  faculties: planFaculties,
  departments: planUnderFaculty("department"),
  programmes: planUnderFaculty("programme"),
  courses: planCourses,
  "course-mappings": planMappings,
};
