import type { Course } from "../../lib/courses/registered-course.ts";
import { totalUnits } from "../../lib/courses/registration-status.ts";
import { SEMESTER_NAMES } from "./picker-state.ts";

/** The running table of the courses picked so far, each removable. */
export function SelectedCourses(props: { courses: Course[]; onRemove: (course: Course) => void }) {
  if (props.courses.length === 0) return <p className="muted">No courses selected yet.</p>;
  return (
    <div className="table-scroll">
      <table aria-label="Selected courses">
        <thead>
          <tr>
            <th scope="col">Course Code</th>
            <th scope="col">Course Title</th>
            <th scope="col">Course Unit</th>
            <th scope="col">Semester</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.courses.map((course) => (
            <tr key={course.course_id}>
              <td className="code">{course.code}</td>
              <td>{course.title}</td>
              <td>{course.unit}</td>
              <td>{SEMESTER_NAMES[course.semester]}</td>
              <td>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove ${course.code}`}
                  onClick={() => props.onRemove(course)}
                >
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={2}>
              Total Units
            </th>
            <td colSpan={3}>{totalUnits(props.courses)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
