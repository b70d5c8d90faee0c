import type { Course } from "../../lib/courses/registered-course.ts";
import { totalUnits } from "../../lib/courses/registration-status.ts";
import { SEMESTER_NAMES } from "./picker-state.ts";

/** The four cells every course table shows: Course Code, Course Title, Course Unit, Semester. */
export function CourseCells({ course }: { course: Course }) {
  return (
    <>
      <td className="code">{course.code}</td>
      <td>{course.title}</td>
      <td>{course.unit}</td>
      <td>{SEMESTER_NAMES[course.semester]}</td>
    </>
  );
}

/** The footer row summing units; the spans fit the table's columns. */
export function TotalUnitsRow(props: {
  label: string;
  courses: Course[];
  labelSpan: number;
  valueSpan: number;
}) {
  return (
    <tr>
      <th scope="row" colSpan={props.labelSpan}>
        {props.label}
      </th>
      <td colSpan={props.valueSpan}>{totalUnits(props.courses)}</td>
    </tr>
  );
}
