import { Fragment, useState } from "react";
import { CourseCells, TotalUnitsRow } from "./course-rows.tsx";
import { NoticeLine } from "./NoticeLine.tsx";
import { NOTICE_ID } from "../../lib/courses/picker-notices.ts";
import { handled, type Notice } from "./picker-state.ts";
import type { Course } from "../../../common/courses/registered-course.ts";
import { matchesKeyword, pageOf } from "../../../common/courses/selection.ts";

const PAGE_SIZE = 10;

/**
 * The selectable course table: keyword search, a tick per course, total units and a pager.
 * Before hydration it is part of the picker's GET form: Filter, the pager and "Add ticked
 * courses" submit it, and `shown` tells the page server which boxes were on screen (an unticked
 * box sends nothing). After hydration the same controls answer at once.
 * A refused tick is answered in a row under the course refused, where the student is looking;
 * a refusal of no course on screen goes above the table.
 */
export function CourseTable(props: {
  courses: Course[];
  selected: Course[];
  keyword: string;
  page: number;
  hydrated: boolean;
  notice: Notice | null;
  onToggle: (course: Course, selected: boolean) => void;
}) {
  const [keyword, setKeyword] = useState(props.keyword);
  const [page, setPage] = useState(props.page);
  const matching = props.courses.filter((course) => matchesKeyword(course, keyword));
  const shown = pageOf(matching, page, PAGE_SIZE);
  const isSelected = (course: Course) =>
    props.selected.some((chosen) => chosen.course_id === course.course_id);
  // A required carry-over stays ticked: the selection keeps it whatever the box sends.
  const isCarryOver = (course: Course) =>
    props.selected.some((chosen) => chosen.course_id === course.course_id && chosen.carry_over);
  const selectedHere = props.courses.filter(isSelected);
  const { notice } = props;
  const refused = (course: Course) => notice?.courseId === course.course_id;
  const inRow = shown.items.some(refused);
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
      {notice && !inRow && <NoticeLine notice={notice} />}
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
        <table className="course-list" aria-label="Courses you can register">
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
              <Fragment key={course.course_id}>
                <tr id={refused(course) ? NOTICE_ID : undefined}>
                  <td className="c-tick">
                    {/* The label is the thumb-sized target around the box; code and title label it too. */}
                    <label className="tick-target">
                      <input
                        type="checkbox"
                        id={`pick-${course.course_id}`}
                        className="tick"
                        name="pick"
                        value={course.course_id}
                        aria-label={`Select ${course.code}`}
                        checked={isSelected(course)}
                        disabled={isCarryOver(course)}
                        onChange={(event) => props.onToggle(course, event.target.checked)}
                      />
                    </label>
                  </td>
                  <CourseCells
                    course={isCarryOver(course) ? { ...course, carry_over: true } : course}
                    pickId={`pick-${course.course_id}`}
                  />
                </tr>
                {notice && refused(course) && (
                  <tr className="row-notice">
                    <td className="c-whole" colSpan={5}>
                      <NoticeLine notice={notice} anchored={false} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
            {shown.items.length === 0 && (
              <tr>
                <td className="c-whole" colSpan={5}>
                  No course matches “{keyword}”.
                </td>
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
