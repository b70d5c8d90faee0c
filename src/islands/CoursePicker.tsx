import { useEffect, useRef, useState } from "react";
import { PortalToaster } from "./PortalToaster.tsx";
import { refocus } from "../lib/ui/refocus.ts";
import { LEVELS, resetQuestion } from "../lib/courses/selection.ts";
import { MAX_UNITS, totalUnits } from "../lib/courses/registration-status.ts";
import { CourseTable } from "../components/courses/CourseTable.tsx";
import { SelectedCourses } from "../components/courses/SelectedCourses.tsx";
import { RegisteredCourses } from "../components/courses/RegisteredCourses.tsx";
import { SearchCoursesDialog } from "../components/courses/SearchCoursesDialog.tsx";
import { Dialog } from "../components/courses/Dialog.tsx";
import { useCoursePicker } from "../components/courses/use-course-picker.ts";
import type { CoursePickerProps, Notice } from "../components/courses/picker-state.ts";

const NoticeLine = ({ notice, place }: { notice: Notice | null; place: Notice["place"] }) =>
  notice?.place === place ? (
    <p role={notice.tone === "error" ? "alert" : "status"} className={`alert alert-${notice.tone}`}>
      {notice.text}
    </p>
  ) : null;

/** /course-reg: choose level, session and semester, pick courses within the cap, register, reset. */
export function CoursePicker(props: CoursePickerProps) {
  const picker = useCoursePicker(props);
  const [showRegistered, setShowRegistered] = useState(false);
  const [searching, setSearching] = useState(false);
  const [confirming, setConfirming] = useState<1 | 2 | null>(null);
  const carryOverUnits = totalUnits(picker.view.courses) - totalUnits(picker.registeredHere);
  // Register Courses is disabled while it sends; when a refusal enables it again, focus returns to it.
  const registerButton = useRef<HTMLButtonElement>(null);
  const wasRegistering = useRef(false);
  useEffect(() => {
    if (wasRegistering.current && !picker.registering) refocus(registerButton.current);
    wasRegistering.current = picker.registering;
  }, [picker.registering]);

  return (
    <div className="picker">
      <PortalToaster />
      <section className="card">
        <div className="grid">
          <div className="field">
            <label htmlFor="registration-level">Registration level</label>
            <select
              id="registration-level"
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
        <div className="field semester-field">
          <label htmlFor="registration-semester">Semester</label>
          <select
            id="registration-semester"
            value={picker.semester}
            onChange={(event) => picker.setSemester(event.target.value as "" | "1" | "2")}
          >
            <option value="">Choose a semester</option>
            <option value="1">FIRST</option>
            <option value="2">SECOND</option>
          </select>
        </div>
        <button
          type="button"
          className="button-secondary"
          aria-expanded={showRegistered}
          onClick={() => setShowRegistered(!showRegistered)}
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
        <section className="card" aria-labelledby="courses-title">
          <h2 id="courses-title">Courses</h2>
          <NoticeLine notice={picker.notice} place="table" />
          {picker.loadingCourses ? (
            <p role="status">Loading courses…</p>
          ) : (
            <CourseTable
              courses={picker.offeredNow}
              selected={picker.selected}
              onToggle={(course, on) => (on ? picker.add(course, "table") : picker.remove(course))}
            />
          )}
        </section>
      )}

      <section className="card" aria-labelledby="selected-title">
        <h2 id="selected-title">Selected Courses</h2>
        <SelectedCourses courses={picker.selected} onRemove={picker.remove} />
        {carryOverUnits > 0 && (
          <p className="muted">
            You have {carryOverUnits} units registered at other levels in {picker.session}; they count
            towards the {MAX_UNITS}-unit cap.
          </p>
        )}
        <NoticeLine notice={picker.notice} place="actions" />
        <div className="actions">
          <button type="button" className="button-secondary" onClick={() => setSearching(true)}>
            Add more Courses
          </button>
          <button
            type="button"
            ref={registerButton}
            disabled={picker.registering}
            onClick={picker.register}
          >
            {picker.registering ? "Registering…" : "Register Courses"}
          </button>
        </div>
      </section>

      <SearchCoursesDialog
        open={searching}
        level={picker.level}
        selected={picker.selected}
        notice={picker.notice?.place === "dialog" ? picker.notice : null}
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
    </div>
  );
}
