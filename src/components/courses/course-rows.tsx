import type { Course } from "../../../common/courses/registered-course.ts";
import { totalUnits } from "../../../common/courses/registration-status.ts";
import { SEMESTER_NAMES } from "./picker-state.ts";
import { CARRY_OVER_LABEL } from "../../../common/courses/carry-overs.ts";

/**
 * The four cells every course table shows: Course Code, Course Title, Course Unit, Semester.
 * Their classes place them in a course card on a phone (course-list.css). With `pickId` the code
 * and title are labels of that course's checkbox, so tapping the name ticks it. A carry-over
 * says so beside its code (decision 180).
 */
export function CourseCells({ course, pickId }: { course: Course; pickId?: string }) {
  const name = (text: string) => (pickId ? <label htmlFor={pickId}>{text}</label> : text);
  return (
    <>
      <td className="c-code">
        {name(course.code)}
        {course.carry_over && (
          <>
            {" "}
            <span className="carry-over">{CARRY_OVER_LABEL}</span>
          </>
        )}
      </td>
      <td className="c-title">{name(course.title)}</td>
      <td className="c-unit" data-label="Units">
        {course.unit}
      </td>
      <td className="c-semester">{SEMESTER_NAMES[course.semester]}</td>
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
    <tr className="total">
      <th scope="row" colSpan={props.labelSpan}>
        {props.label}
      </th>
      <td colSpan={props.valueSpan}>{totalUnits(props.courses)}</td>
    </tr>
  );
}
