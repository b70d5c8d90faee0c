import { useEffect, useState } from "react";
import { apiRequest } from "../../lib/api/browser-api.ts";
import type { Course, CourseList } from "../../lib/courses/registered-course.ts";
import { Dialog } from "./Dialog.tsx";
import { SelectedCourses } from "./SelectedCourses.tsx";
import type { Notice } from "./picker-state.ts";

const MIN_CHARACTERS = 2;
// Wait for a pause in typing so a slow connection is not flooded with one call per key.
const TYPING_PAUSE_MS = 300;

/** "Search Courses": course-code search from 2 characters, click a result to add it. */
export function SearchCoursesDialog(props: {
  open: boolean;
  level: string;
  selected: Course[];
  notice: Notice | null;
  onAdd: (course: Course) => void;
  onRemove: (course: Course) => void;
  onClose: () => void;
}) {
  const [code, setCode] = useState("");
  const [results, setResults] = useState<Course[]>([]);
  const [status, setStatus] = useState("");

  useEffect(() => {
    const text = code.trim();
    if (text.length < MIN_CHARACTERS) {
      setResults([]);
      setStatus(text ? `Type at least ${MIN_CHARACTERS} characters.` : "");
      return;
    }
    let current = true;
    const timer = setTimeout(async () => {
      setStatus("Searching…");
      try {
        const query = new URLSearchParams({
          code: text,
          ...(props.level ? { level: props.level } : {}),
        });
        const body = await apiRequest<CourseList>(`/courses/all/?${query}`);
        if (!current) return;
        setResults(body.data.data);
        setStatus(body.data.data.length === 0 ? `No course code contains “${text}”.` : "");
      } catch (error) {
        if (current) setStatus((error as Error).message);
      }
    }, TYPING_PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [code, props.level]);

  return (
    <Dialog open={props.open} title="Search Courses" onClose={props.onClose}>
      <div className="field">
        <label htmlFor="course-code-search">Course code</label>
        <input
          id="course-code-search"
          value={code}
          placeholder="e.g. EDU 121"
          autoComplete="off"
          onChange={(event) => setCode(event.target.value)}
        />
      </div>
      <p className="muted" aria-live="polite">
        {status}
      </p>
      {props.notice && (
        <p role="alert" className={`alert alert-${props.notice.tone}`}>
          {props.notice.text}
        </p>
      )}
      <ul className="search-results" aria-label="Search results">
        {results.map((course) => (
          <li key={course.course_id}>
            <button
              type="button"
              className="button-secondary result"
              onClick={() => props.onAdd(course)}
            >
              <strong>{course.code}</strong> {course.title} ({course.unit} units)
            </button>
          </li>
        ))}
      </ul>
      <h3>Selected courses</h3>
      <SelectedCourses courses={props.selected} onRemove={props.onRemove} />
      <div className="dialog-actions">
        <button type="button" onClick={props.onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}
