import { useState } from "react";
import { CourseCells, TotalUnitsRow } from "./course-rows.tsx";
import { handled } from "./picker-state.ts";
import type { Course } from "../../lib/courses/registered-course.ts";
import { matchesKeyword, pageOf } from "../../lib/courses/selection.ts";

const PAGE_SIZE = 10;

/**
 * The selectable course table: keyword search, a tick per course, total units and a pager.
 * Before hydration it is part of the picker's GET form: Filter, the pager and "Add ticked
 * courses" submit it, and `shown` tells the page server which boxes were on screen (an unticked
 * box sends nothing). After hydration the same controls answer at once.
 */
export function CourseTable(props: {
  courses: Course[];
  selected: Course[];
  keyword: string;
  page: number;
  hydrated: boolean;
  onToggle: (course: Course, selected: boolean) => void;
}) {
  const [keyword, setKeyword] = useState(props.keyword);
  const [page, setPage] = useState(props.page);
  const matching = props.courses.filter((course) => matchesKeyword(course, keyword));
  const shown = pageOf(matching, page, PAGE_SIZE);
  const isSelected = (course: Course) =>
    props.selected.some((chosen) => chosen.course_id === course.course_id);
  const selectedHere = props.courses.filter(isSelected);
  const pagerButton = (label: string, to: number, disabled: boolean) => (
    <button
      type="submit"
      name="goto"
      value={to + 1}
      className="button-secondary"
      disabled={disabled}
      onClick={handled(() => setPage(to))}
    >
      {label}
    </button>
  );

  return (
    <div className="course-table">
      <div className="inline-form">
        <div className="field">
          <label htmlFor="course-keyword">Search courses</label>
          <input
            id="course-keyword"
            name="keyword"
            type="search"
            value={keyword}
            placeholder="Code or title"
            onChange={(event) => {
              setKeyword(event.target.value);
              setPage(0);
            }}
          />
        </div>
        {!props.hydrated && (
          <button type="submit" name="goto" value="1" className="button-secondary">
            Filter
          </button>
        )}
      </div>
      <input type="hidden" name="page" value={shown.page + 1} />
      {shown.items.map((course) => (
        <input key={course.course_id} type="hidden" name="shown" value={course.course_id} />
      ))}
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
                    name="pick"
                    value={course.course_id}
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
        {pagerButton("Previous", shown.page - 1, shown.page === 0)}
        <span>
          Page {shown.page + 1} of {shown.pages}
        </span>
        {pagerButton("Next", shown.page + 1, shown.page >= shown.pages - 1)}
        {!props.hydrated && (
          <button type="submit" name="goto" value={shown.page + 1}>
            Add ticked courses
          </button>
        )}
      </nav>
    </div>
  );
}
