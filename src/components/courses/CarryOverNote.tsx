import type { CarryOver } from "../../../common/courses/registered-course.ts";
import { MAX_UNITS } from "../../../common/courses/registration-status.ts";
import { semesterLabel } from "../../../common/courses/selection.ts";

const named = (courses: CarryOver[]) =>
  courses.map((course) => `${course.code} (${semesterLabel(course.semester)})`).join(", ");

/**
 * Why courses the student did not pick are in the selection: compulsory courses failed in a
 * published semester, taken again (decision 180); and which carry-overs wait for a later session.
 */
export function CarryOverNote({ carryOvers }: { carryOvers: CarryOver[] }) {
  const required = carryOvers.filter((course) => course.state === "required");
  const waiting = carryOvers.filter((course) => course.state === "waiting");
  if (required.length === 0 && waiting.length === 0) return null;
  return (
    <div className="carry-over-note" data-testid="carry-over-note">
      {required.length > 0 && (
        <p>
          <strong>Carry-over:</strong> {named(required)}.{" "}
          {required.length === 1
            ? `A compulsory course you failed must be registered again: it is selected with your courses, cannot be removed and counts towards the ${MAX_UNITS}-unit cap.`
            : `Compulsory courses you failed must be registered again: they are selected with your courses, cannot be removed and count towards the ${MAX_UNITS}-unit cap.`}
        </p>
      )}
      {waiting.map((course) => (
        <p key={course.course_id}>
          <strong>{course.code}</strong> (carry-over): {course.waiting_reason}
        </p>
      ))}
    </div>
  );
}
