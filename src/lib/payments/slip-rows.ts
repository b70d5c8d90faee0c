import { fullName, type StudentRecord } from "../../../common/students/student-record.ts";

export type SlipRow = [label: string, value: string | number | null];

/**
 * The Base Data rows both slips print (spec: School fees and Hostel payment slips). They differ
 * only in where Session comes from and in the fees slip's extra Level row.
 */
export function slipBaseData(student: StudentRecord, session: string, level?: number): SlipRow[] {
  const rows: SlipRow[] = [
    ["Name", fullName(student)],
    ["Matriculation Number", student.matric_no],
    ["Course", student.department],
    ["Email", student.email],
    ["Entry Mode", student.entry_mode],
    ["Study Mode", student.study_mode],
    ["Session", session],
  ];
  return level === undefined ? rows : [...rows, ["Level", level]];
}
