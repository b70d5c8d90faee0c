import { CourseCells, TotalUnitsRow } from "./course-rows.tsx";
import { handled } from "./picker-state.ts";
import type { Course } from "../../../common/courses/registered-course.ts";

/**
 * The running table of the courses picked so far, each removable (a submit button before
 * hydration) but a required carry-over, which registration cannot go without (decision 180).
 */
export function SelectedCourses(props: { courses: Course[]; onRemove: (course: Course) => void }) {
  if (props.courses.length === 0) return <p className="muted">No courses selected yet.</p>;
  return (
    <div className="table-scroll">
      <table className="course-list" aria-label="Selected courses">
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
              <CourseCells course={course} />
              <td className="c-action">
                {course.carry_over ? (
                  <span className="muted">Required</span>
                ) : (
                  <button
                    type="submit"
                    name="drop"
                    value={course.course_id}
                    className="icon-button"
                    aria-label={`Remove ${course.code}`}
                    onClick={handled(() => props.onRemove(course))}
                  >
                    ×
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <TotalUnitsRow label="Total Units" courses={props.courses} labelSpan={2} valueSpan={3} />
        </tfoot>
      </table>
    </div>
  );
}
