import type { students } from "../../db/schema.ts";
import type { Places } from "./places.ts";

type StudentRow = typeof students.$inferSelect;

/** The fields of a student record the registry imports and corrects, in the API's names. */
export type StudentFields = {
  matric_no: string;
  application_no: string;
  surname: string;
  othername: string;
  phone: string;
  /** null: no e-mail address (decision 156). */
  email: string | null;
  programme_id: number;
  department_id: number;
  level: number;
  entry_session: string;
  entry_mode: string;
  study_mode: string;
};

export function fieldsOf(student: StudentRow): StudentFields {
  return {
    matric_no: student.matricNo ?? "",
    application_no: student.applicationNo,
    surname: student.surname,
    othername: student.othername,
    phone: student.phone,
    email: student.email,
    programme_id: student.programmeId,
    department_id: student.departmentId,
    level: student.level,
    entry_session: student.entrySession,
    entry_mode: student.entryMode,
    study_mode: student.studyMode,
  };
}

type Columns = Pick<
  typeof students.$inferInsert,
  | "matricNo"
  | "applicationNo"
  | "surname"
  | "othername"
  | "phone"
  | "email"
  | "programmeId"
  | "departmentId"
  | "level"
  | "entrySession"
  | "entryMode"
  | "studyMode"
>;

/** The columns to write for all of the fields (a new student) or some of them (a correction). */
export function toColumns(fields: StudentFields): Columns;
export function toColumns(fields: Partial<StudentFields>): Partial<Columns>;
export function toColumns(fields: Partial<StudentFields>): Partial<Columns> {
  return {
    matricNo: fields.matric_no,
    applicationNo: fields.application_no,
    surname: fields.surname,
    othername: fields.othername,
    phone: fields.phone,
    email: fields.email,
    programmeId: fields.programme_id,
    departmentId: fields.department_id,
    level: fields.level,
    entrySession: fields.entry_session,
    entryMode: fields.entry_mode,
    studyMode: fields.study_mode,
  };
}

/** The fields as the audit log keeps them: programme and department by name, readable years later. */
export function forAudit(fields: Partial<StudentFields>, places: Places): Record<string, unknown> {
  const { programme_id, department_id, ...rest } = fields;
  return {
    ...rest,
    programme: programme_id === undefined ? undefined : places.programmes.nameOf(programme_id),
    department: department_id === undefined ? undefined : places.departments.nameOf(department_id),
  };
}
