import type { Course } from "../../../common/courses/registered-course.ts";
import type { Notice } from "../../lib/courses/picker-notices.ts";
import { handled } from "./picker-state.ts";
import { NoticeLine } from "./NoticeLine.tsx";

/**
 * What a course-code search found, the line about it and the refusal of the last pick: shared
 * by the search modal and the search section the page shows before hydration. A result is a
 * submit button (`add`) there, and adds at once here.
 */
export function SearchResults(props: {
  results: Course[];
  status: string;
  notice: Notice | null;
  onAdd: (course: Course) => void;
}) {
  return (
    <>
      <p className="muted" aria-live="polite">
        {props.status}
      </p>
      {props.notice && <NoticeLine notice={props.notice} />}
      <ul className="search-results" aria-label="Search results">
        {props.results.map((course) => (
          <li key={course.course_id}>
            <button
              type="submit"
              name="add"
              value={course.course_id}
              className="button-secondary result"
              onClick={handled(() => props.onAdd(course))}
            >
              <strong>{course.code}</strong> {course.title} ({course.unit} units)
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * "Search Courses" before hydration: a part of the picker's GET form. The page server runs the
 * search; a result's button adds the course and keeps the rest of the selection.
 */
export function CourseSearchSection(props: {
  code: string;
  results: Course[];
  status: string;
  notice: Notice | null;
  /** The id the page's answer opens at, when this search was just used. */
  anchorId: string | undefined;
}) {
  return (
    <section className="card" id="search-courses" aria-labelledby="search-courses-title">
      <h2 id="search-courses-title">Search Courses</h2>
      <div className="inline-form" id={props.anchorId}>
        <div className="field">
          <label htmlFor="course-code">Course code</label>
          <input
            id="course-code"
            name="code"
            defaultValue={props.code}
            placeholder="e.g. EDU 121"
            autoComplete="off"
          />
        </div>
        <button type="submit" name="search" value="1" className="button-secondary">
          Search Courses
        </button>
      </div>
      <SearchResults
        results={props.results}
        status={props.status}
        notice={props.notice}
        onAdd={() => {}}
      />
    </section>
  );
}
