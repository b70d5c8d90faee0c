import { useEffect, useState } from "react";
import { apiRequest } from "../../lib/api/browser-api.client.ts";
import type { Course, CourseList } from "../../../common/courses/registered-course.ts";
import { Dialog } from "./Dialog.tsx";
import { SelectedCourses } from "./SelectedCourses.tsx";
import { SearchResults } from "./SearchResults.tsx";
import type { Notice } from "./picker-state.ts";
import { SEARCH_MIN_CHARACTERS, searchStatus } from "../../lib/courses/picker-notices.ts";
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
    if (text.length < SEARCH_MIN_CHARACTERS) {
      setResults([]);
      setStatus(searchStatus(text, null));
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
        setStatus(searchStatus(text, body.data.data));
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
      <SearchResults results={results} status={status} notice={props.notice} onAdd={props.onAdd} />
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
