import { z } from "zod";
import { LARGEST_RECORD_ID, RecordId } from "../validation/lists.ts";
import {
  readCourseCode,
  readLevel,
  readName,
  readSemester,
  readUnit,
  type Cell,
} from "./structure-cells.ts";

/** The exact first line each academic-structure import expects (decision 083). */
export const IMPORT_HEADERS = {
  faculties: ["name"],
  departments: ["name", "faculty"],
  programmes: ["name", "faculty"],
  courses: ["code", "title", "unit", "semester"],
  "course-mappings": ["course_code", "programme", "level", "semester"],
} as const;
export type ImportKind = keyof typeof IMPORT_HEADERS;

/** A zod field read by one of the cell readers, so forms and CSV rows say the same thing. */
const cell = <T>(read: (text: string) => Cell<T>) =>
  z
    .union([z.string(), z.number()], { error: "This field is required." })
    .transform((input, context): T => {
      const result = read(String(input));
      if ("problem" in result) {
        context.addIssue({ code: "custom", message: result.problem });
        return z.NEVER;
      }
      return result.value;
    });

const id = (what: string) => RecordId(`Choose a ${what}.`);
const name = (what: string) => cell((text) => readName(text, what));
const somethingToChange = { message: "Nothing to change." };
const changes = (value: object) => Object.values(value).some((field) => field !== undefined);

export const FacultyRequest = z.object({ name: name("faculty name") });
export const DepartmentRequest = z.object({
  name: name("department name"),
  faculty_id: id("faculty"),
});
export const DepartmentChange = DepartmentRequest.partial().refine(changes, somethingToChange);
export const ProgrammeRequest = z.object({
  name: name("programme name"),
  faculty_id: id("faculty"),
  /** Omitted: 300 for an NCE programme, 400 otherwise. */
  final_level: cell(readLevel).optional(),
});
export const ProgrammeChange = ProgrammeRequest.partial().refine(changes, somethingToChange);
export const CourseRequest = z.object({
  code: cell(readCourseCode),
  title: cell((text) => readName(text, "course title", 200)),
  unit: cell(readUnit),
  semester: cell(readSemester),
});
export const CourseChange = CourseRequest.partial().refine(changes, somethingToChange);
export const MappingRequest = z.object({
  course_code: cell(readCourseCode),
  programme_id: id("programme"),
  level: cell(readLevel),
  semester: cell(readSemester),
});

export const StructureQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(1000).default(50),
  /** Words in the name, title or code. */
  q: z.string().trim().max(60).optional(),
  programme_id: z.coerce.number().int().positive().max(LARGEST_RECORD_ID).optional(),
  level: z.coerce.number().int().optional(),
});

const paged = <T extends z.ZodType>(row: T) =>
  z.object({ data: z.array(row), total: z.number(), page: z.number(), page_size: z.number() });

export const FacultyPage = paged(
  z.object({ id: z.number(), name: z.string(), departments: z.number(), programmes: z.number() }),
);
export const DepartmentPage = paged(
  z.object({ id: z.number(), name: z.string(), faculty_id: z.number(), faculty: z.string() }),
);
export const ProgrammePage = paged(
  z.object({
    id: z.number(),
    name: z.string(),
    faculty_id: z.number(),
    faculty: z.string(),
    final_level: z.number(),
    students: z.number(),
  }),
);
export const CoursePage = paged(
  z.object({
    id: z.number(),
    code: z.string(),
    title: z.string(),
    unit: z.number(),
    semester: z.number(),
  }),
);
export const MappingPage = paged(
  z.object({
    id: z.number(),
    course_code: z.string(),
    title: z.string(),
    unit: z.number(),
    programme: z.string(),
    level: z.number(),
    semester: z.number(),
  }),
);
export type FacultyPage = z.infer<typeof FacultyPage>;
export type ProgrammePage = z.infer<typeof ProgrammePage>;

/** What every import answers (server/csv/import-report.ts). */
export { ImportReport } from "../csv/import-report.ts";
