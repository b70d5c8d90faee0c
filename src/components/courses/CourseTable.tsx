import { useState } from "react";
import { CourseCells, TotalUnitsRow } from "./course-rows.tsx";
import type { Course } from "../../lib/courses/registered-course.ts";
import { matchesKeyword, pageOf } from "../../lib/courses/selection.ts";

const PAGE_SIZE = 10;

/** The selectable course table: keyword search, a tick per course, total units and a pager. */
export function CourseTable(props: {
  courses: Course[];
  selected: Course[];
  onToggle: (course: Course, selected: boolean) => void;
}) {
  const [keyword, setKeyword] = useState("");
  const [page, setPage] = useState(0);
  const matching = props.courses.filter((course) => matchesKeyword(course, keyword));
  const shown = pageOf(matching, page, PAGE_SIZE);
  const isSelected = (course: Course) =>
    props.selected.some((chosen) => chosen.course_id === course.course_id);
  const selectedHere = props.courses.filter(isSelected);

  return (
    <div className="course-table">
      <div className="field">
        <label htmlFor="course-keyword">Search courses</label>
        <input
          id="course-keyword"
          type="search"
          value={keyword}
          placeholder="Code or title"
          onChange={(event) => {
            setKeyword(event.target.value);
            setPage(0);
          }}
        />
      </div>
      <div className="table-scroll">
        <table aria-label="Courses you can register">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Select</span>
              </th>
              <th scope="col">Course Code</th>
              <th scope="col">Course Title</th>
              <th scope="col">Course Unit</th>
              <th scope="col">Semester</th>
            </tr>
          </thead>
          <tbody>
            {shown.items.map((course) => (
              <tr key={course.course_id}>
                <td>
                  <input
                    type="checkbox"
                    className="tick"
                    aria-label={`Select ${course.code}`}
                    checked={isSelected(course)}
                    onChange={(event) => props.onToggle(course, event.target.checked)}
                  />
                </td>
                <CourseCells course={course} />
              </tr>
            ))}
            {shown.items.length === 0 && (
              <tr>
                <td colSpan={5}>No course matches “{keyword}”.</td>
              </tr>
            )}
          </tbody>
          <tfoot>
            <TotalUnitsRow
              label="Total Units Selected"
              courses={selectedHere}
              labelSpan={3}
              valueSpan={2}
            />
          </tfoot>
        </table>
      </div>
      <nav className="pager" aria-label="Course pages">
        <button
          type="button"
          className="button-secondary"
          disabled={shown.page === 0}
          onClick={() => setPage(shown.page - 1)}
        >
          Previous
        </button>
        <span>
          Page {shown.page + 1} of {shown.pages}
        </span>
        <button
          type="button"
          className="button-secondary"
          disabled={shown.page >= shown.pages - 1}
          onClick={() => setPage(shown.page + 1)}
        >
          Next
        </button>
      </nav>
    </div>
  );
}
