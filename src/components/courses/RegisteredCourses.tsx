import { CourseCells, TotalUnitsRow } from "./course-rows.tsx";
import type {
  Approval,
  Course,
  ReturnedSemester,
} from "../../../common/courses/registered-course.ts";
import { advisorLines } from "../../lib/courses/advisor.ts";
import { APPROVED_CANNOT_RESET, semesterLabel } from "../../../common/courses/selection.ts";
import { handled, printoutPath } from "./picker-state.ts";

/**
 * The registered courses of a level and session, the advisor's word on them, reset and printout.
 * Before hydration a reset button takes the student to the confirmation page (/course-reg/reset);
 * after it, the island asks in a dialog.
 */
export function RegisteredCourses(props: {
  courses: Course[];
  approvals: Approval[];
  returns: ReturnedSemester[];
  level: string;
  session: string;
  modifiable: boolean;
  onReset: (semester: 1 | 2) => void;
}) {
  if (props.courses.length === 0)
    return <p className="alert alert-info">No Courses Registered Yet</p>;
  const lines = advisorLines(
    props.courses.map((course) => course.semester),
    props.approvals,
    props.returns,
  );
  const approved = (semester: 1 | 2) =>
    props.approvals.some((approval) => approval.semester === semester);
  const held = ([1, 2] as const).filter((semester) =>
    props.courses.some((course) => course.semester === semester),
  );
  // Offer no reset the server would refuse (an approved semester is frozen) or that would do
  // nothing (a semester with no courses at this level); warn only when something is frozen.
  const resettable = held.filter((semester) => !approved(semester));
  const frozen = held.some(approved);
  return (
    <div className="registered">
      <div className="table-scroll">
        <table className="course-list" aria-label="Registered courses">
          <thead>
            <tr>
              <th scope="col">Course Code</th>
              <th scope="col">Course Title</th>
              <th scope="col">Course Unit</th>
              <th scope="col">Semester</th>
            </tr>
          </thead>
          <tbody>
            {props.courses.map((course) => (
              <tr key={course.id}>
                <CourseCells course={course} />
              </tr>
            ))}
          </tbody>
          <tfoot>
            <TotalUnitsRow
              label="Total Units"
              courses={props.courses}
              labelSpan={2}
              valueSpan={2}
            />
          </tfoot>
        </table>
      </div>
      {frozen && <p className="note">{APPROVED_CANNOT_RESET}</p>}
      <ul className="advisor" aria-label="Course Advisor">
        {lines.map((line) => (
          <li key={line.semester} className={`tone-${line.tone}`}>
            Course Advisor — {line.text}
          </li>
        ))}
      </ul>
      <div className="actions">
        {props.modifiable &&
          resettable.map((semester) => (
            <button
              key={semester}
              type="submit"
              formMethod="get"
              formAction="/course-reg/reset"
              name="reset"
              value={semester}
              className="button-danger"
              onClick={handled(() => props.onReset(semester))}
            >
              Reset {semesterLabel(semester)}
            </button>
          ))}
        <a className="button button-secondary" href={printoutPath(props.level, props.session)}>
          Go to Printout
        </a>
      </div>
    </div>
  );
}
