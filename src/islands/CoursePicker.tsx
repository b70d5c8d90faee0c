import { useEffect, useRef, useState } from "react";
import { PortalToaster } from "./PortalToaster.tsx";
import { refocus } from "../lib/ui/refocus.ts";
import { LEVELS, resetQuestion } from "../../common/courses/selection.ts";
import { NOTICE_ID, searchStatus } from "../lib/courses/picker-notices.ts";
import { MAX_UNITS, totalUnits } from "../../common/courses/registration-status.ts";
import { CourseTable } from "../components/courses/CourseTable.tsx";
import { SelectedCourses } from "../components/courses/SelectedCourses.tsx";
import { RegisteredCourses } from "../components/courses/RegisteredCourses.tsx";
import { SearchCoursesDialog } from "../components/courses/SearchCoursesDialog.tsx";
import { CourseSearchSection } from "../components/courses/SearchResults.tsx";
import { Dialog } from "../components/courses/Dialog.tsx";
import { NoticeLine } from "../components/courses/NoticeLine.tsx";
import { CarryOverNote } from "../components/courses/CarryOverNote.tsx";
import { useCoursePicker } from "../components/courses/use-course-picker.client.ts";
import {
  handled,
  type CoursePickerProps,
  type Notice,
} from "../components/courses/picker-state.ts";

/** The notice if it belongs at `place`. */
const at = (notice: Notice | null, place: Notice["place"]) =>
  notice?.place === place ? notice : null;
const NoticeAt = ({ notice, place }: { notice: Notice | null; place: Notice["place"] }) => {
  const here = at(notice, place);
  return here ? <NoticeLine notice={here} /> : null;
};

/**
 * /course-reg: choose level, session and semester, pick courses within the cap, register, reset.
 * One form (decision 092): without JavaScript its buttons submit it to the page server (GET to
 * show, POST to register); once hydrated, the same controls answer at once and call the API.
 */
export function CoursePicker(props: CoursePickerProps) {
  const picker = useCoursePicker(props);
  const { hydrated } = picker;
  const [showRegistered, setShowRegistered] = useState(props.showRegistered);
  const [searching, setSearching] = useState(false);
  const [confirming, setConfirming] = useState<1 | 2 | null>(null);
  // Without a message, a page the server answered opens at the part just used.
  const landingId = (part: CoursePickerProps["landing"]) =>
    !props.notice && props.landing === part ? NOTICE_ID : undefined;
  const carryOverUnits = totalUnits(picker.view.courses) - totalUnits(picker.registeredHere);
  // Register Courses is disabled while it sends; when a refusal enables it again, focus returns to it.
  const registerButton = useRef<HTMLButtonElement>(null);
  const wasRegistering = useRef(false);
  useEffect(() => {
    if (wasRegistering.current && !picker.registering) refocus(registerButton.current);
    wasRegistering.current = picker.registering;
  }, [picker.registering]);

  return (
    <form
      className="picker"
      method="get"
      // The server's answer opens at its message, wherever the page puts it (a redirect keeps the fragment).
      action={`/course-reg#${NOTICE_ID}`}
      onSubmit={(event) => event.preventDefault()}
    >
      <PortalToaster />
      <NoticeAt notice={picker.notice} place="top" />
      {/* The selection as rendered: the next submission starts from it. */}
      <input type="hidden" name="sel_level" value={picker.level} />
      {picker.selected.map((course) => (
        <input key={course.course_id} type="hidden" name="sel" value={course.course_id} />
      ))}
      {showRegistered && <input type="hidden" name="keep_registered" value="1" />}
      <section className="card">
        <div className="grid">
          <div className="field">
            <label htmlFor="registration-level">Registration level</label>
            <select
              id="registration-level"
              name="level"
              value={picker.level}
              onChange={(event) => picker.chooseLevel(event.target.value)}
            >
              <option value=""></option>
              {LEVELS.map((level) => (
                <option key={level} value={level}>
                  {level}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="registration-session">Session</label>
            <select
              id="registration-session"
              name="session"
              value={picker.session}
              onChange={(event) => picker.chooseSession(event.target.value)}
            >
              <option value="">Select a session</option>
              {props.sessions.map((entry) => (
                <option key={entry.name} value={entry.name}>
                  {entry.name}
                </option>
              ))}
            </select>
          </div>
        </div>
        <p className="fee-status">
          School fee status{props.fee.session ? ` (${props.fee.session})` : ""}:{" "}
          <strong className={`tone-${props.fee.tone}`}>{props.fee.label}</strong>
        </p>
      </section>

      <section className="card" aria-labelledby="criteria-title">
        <h2 id="criteria-title">Registration Criteria</h2>
        <div className="inline-form">
          <div className="field semester-field">
            <label htmlFor="registration-semester">Semester</label>
            <select
              id="registration-semester"
              name="semester"
              value={picker.semester}
              onChange={(event) => picker.setSemester(event.target.value as "" | "1" | "2")}
            >
              <option value="">Choose a semester</option>
              <option value="1">FIRST</option>
              <option value="2">SECOND</option>
            </select>
          </div>
          {/* The form's first button, so Enter in any field shows (never registers). Kept hidden
              after hydration for the same reason: Enter must not press another button. */}
          <button type="submit" className="button-secondary" hidden={hydrated}>
            Show Courses
          </button>
        </div>
        <button
          type="submit"
          name="toggle_registered"
          value="1"
          className="button-secondary"
          aria-expanded={showRegistered}
          onClick={handled(() => setShowRegistered(!showRegistered))}
        >
          View Registered Courses
        </button>
        {showRegistered && (
          <RegisteredCourses
            courses={picker.registeredHere}
            approvals={picker.view.approvals}
            returns={picker.view.returns}
            level={picker.level}
            session={picker.session}
            modifiable={picker.modifiable}
            onReset={setConfirming}
          />
        )}
      </section>

      {picker.semester && (
        <section className="card" id={landingId("courses")} aria-labelledby="courses-title">
          <h2 id="courses-title">Courses</h2>
          {picker.loadingCourses ? (
            <p role="status">Loading courses…</p>
          ) : (
            <CourseTable
              // Another semester is another list: start it at its first page, unfiltered.
              key={picker.semester}
              courses={picker.offeredNow}
              selected={picker.selected}
              keyword={picker.semester === props.semester ? props.keyword : ""}
              page={picker.semester === props.semester ? props.page : 0}
              hydrated={hydrated}
              notice={at(picker.notice, "table")}
              onToggle={(course, on) => (on ? picker.add(course, "table") : picker.remove(course))}
            />
          )}
        </section>
      )}

      {!hydrated && (
        <CourseSearchSection
          code={props.code}
          results={props.searchResults ?? []}
          status={searchStatus(props.code, props.searchResults)}
          notice={at(props.notice, "dialog")}
          anchorId={landingId("search")}
        />
      )}

      <section className="card" id={landingId("selected")} aria-labelledby="selected-title">
        <h2 id="selected-title">Selected Courses</h2>
        <CarryOverNote carryOvers={picker.carryOvers} />
        <SelectedCourses courses={picker.selected} onRemove={picker.remove} />
        {carryOverUnits > 0 && (
          <p className="muted">
            You have {carryOverUnits} units registered at other levels in {picker.session}; they
            count towards the {MAX_UNITS}-unit cap.
          </p>
        )}
        <NoticeAt notice={picker.notice} place="actions" />
        <div className="actions">
          {hydrated ? (
            <button type="button" className="button-secondary" onClick={() => setSearching(true)}>
              Add more Courses
            </button>
          ) : (
            <a className="button button-secondary" href="#search-courses">
              Add more Courses
            </a>
          )}
          <button
            type="submit"
            formMethod="post"
            ref={registerButton}
            disabled={picker.registering}
            onClick={handled(picker.register)}
          >
            {picker.registering ? "Registering…" : "Register Courses"}
          </button>
        </div>
      </section>

      <SearchCoursesDialog
        open={searching}
        level={picker.level}
        selected={picker.selected}
        notice={at(picker.notice, "dialog")}
        onAdd={(course) => picker.add(course, "dialog")}
        onRemove={picker.remove}
        onClose={() => {
          setSearching(false);
          picker.setNotice(null);
        }}
      />
      <Dialog
        open={confirming !== null}
        title="Reset registration"
        onClose={() => setConfirming(null)}
      >
        <p>{confirming && resetQuestion(confirming, picker.level, picker.session)}</p>
        <div className="dialog-actions">
          <button type="button" className="button-secondary" onClick={() => setConfirming(null)}>
            Cancel
          </button>
          <button
            type="button"
            className="button-danger"
            onClick={() => {
              if (confirming) void picker.reset(confirming);
              setConfirming(null);
            }}
          >
            Yes, reset
          </button>
        </div>
      </Dialog>
    </form>
  );
}
