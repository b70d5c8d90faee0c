import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { apiRequest } from "../../lib/api/browser-api.client.ts";
import { TOAST_DURATION_MS } from "../../lib/ui/toast-duration.ts";
import type {
  CarryOver,
  Course,
  CourseList,
  PickerView,
} from "../../../common/courses/registered-course.ts";
import {
  markCarryOvers,
  requiredCarryOvers,
  withCarryOvers,
} from "../../../common/courses/carry-overs.ts";
import {
  ALREADY_SELECTED,
  OVER_CAP,
  OVER_CAP_IN_TABLE,
  refusalToPick,
  registeredAtLevel,
  semesterName,
} from "../../../common/courses/selection.ts";
import { pickerPath, refusalBeforeRegister } from "../../lib/courses/picker-notices.ts";
import { pickerViewPath, type CoursePickerProps, type Notice } from "./picker-state.ts";

/**
 * The course picker's state and the actions the page's controls call. It starts from the state
 * the page server rendered (the last form submission), so hydration changes nothing on screen.
 */
export function useCoursePicker(props: CoursePickerProps) {
  // Until hydrated, buttons submit the form to the page server; after it, this hook answers them.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [session, setSession] = useState(props.session);
  const [level, setLevel] = useState(props.level);
  const [semester, setSemester] = useState(props.semester);
  const [offered, setOffered] = useState<Record<string, Course[]>>({
    [props.level]: props.offered,
  });
  // The session's registrations at every level: they all count against the cap.
  const [view, setView] = useState({
    courses: props.registered,
    approvals: props.approvals,
    returns: props.returns,
  });
  const [carryOvers, setCarryOvers] = useState<CarryOver[]>(props.carryOvers);
  const [selected, setSelected] = useState<Course[]>(props.selected);
  const [notice, setNotice] = useState<Notice | null>(props.notice);
  const [loadingCourses, setLoadingCourses] = useState(false);
  const [registering, setRegistering] = useState(false);
  // Answers can come back out of order on a slow line: only the latest request may set state.
  const latestView = useRef(0);
  // A message the student's action caused is brought on screen (a row's refusal can land just
  // below the fold); the one the server rendered is left where the page opened.
  const shownNotice = useRef(notice);
  useEffect(() => {
    if (notice === shownNotice.current) return;
    shownNotice.current = notice;
    document.querySelector("[data-notice]")?.scrollIntoView({ block: "nearest" });
  }, [notice]);

  const modifiable =
    props.sessions.find((entry) => entry.name === session)?.course_modifiable ?? false;

  async function loadRegistered(nextSession: string) {
    const request = ++latestView.current;
    if (!nextSession) {
      setView({ courses: [], approvals: [], returns: [] });
      return replaceCarryOvers([]);
    }
    try {
      const { data } = await apiRequest<PickerView>(pickerViewPath(nextSession));
      if (request !== latestView.current) return;
      const { view } = data;
      setView({ courses: view.data, approvals: view.approvals, returns: view.returns });
      replaceCarryOvers(data.carry_overs);
    } catch (error) {
      if (request === latestView.current)
        setNotice({ text: (error as Error).message, tone: "error", place: "actions" });
    }
  }

  /** Another session has other carry-overs: the selection keeps the student's own picks. */
  function replaceCarryOvers(next: CarryOver[]) {
    setCarryOvers(next);
    setSelected((chosen) =>
      withCarryOvers<Course>(
        requiredCarryOvers(next),
        chosen.filter((course) => !course.carry_over),
      ),
    );
  }

  async function loadOffered(nextLevel: string) {
    if (!nextLevel || offered[nextLevel]) return;
    setLoadingCourses(true);
    try {
      const body = await apiRequest<CourseList>(`/courses/mapped/read?mapped_level=${nextLevel}`);
      setOffered((known) => ({ ...known, [nextLevel]: body.data.data }));
    } catch (error) {
      setNotice({ text: (error as Error).message, tone: "error", place: "table" });
    } finally {
      setLoadingCourses(false);
    }
  }

  function chooseLevel(value: string) {
    setLevel(value);
    // Courses picked at one level are not offered at another; carry-overs go with any level.
    setSelected(requiredCarryOvers(carryOvers));
    setNotice(null);
    void loadOffered(value);
  }

  function chooseSession(value: string) {
    setSession(value);
    setNotice(null);
    void loadRegistered(value);
  }

  /** Adds a course unless it is taken already or would pass the cap; says why not. */
  function add(course: Course, place: "table" | "dialog") {
    const refusal = refusalToPick(view.courses, selected, course);
    // A refused tick is answered in the course's own row, beside the box just tapped.
    const courseId = course.course_id;
    if (refusal === "duplicate")
      return setNotice({ text: ALREADY_SELECTED, tone: "error", place, courseId });
    if (refusal === "over-cap") {
      return setNotice({
        text: place === "table" ? OVER_CAP_IN_TABLE : OVER_CAP,
        tone: "error",
        place,
        courseId,
      });
    }
    setNotice(null);
    setSelected((chosen) => [...chosen, course]);
  }

  // A required carry-over cannot be removed: the server would refuse the registration without it.
  const remove = (course: Course) =>
    setSelected((chosen) =>
      chosen.filter((entry) => entry.carry_over || entry.course_id !== course.course_id),
    );

  async function register() {
    const refusal = refusalBeforeRegister(session, level, selected);
    if (refusal) return setNotice(refusal);
    setRegistering(true);
    setNotice(null);
    try {
      await apiRequest("/courses/register", {
        method: "POST",
        json: {
          courses: selected.map((course) => course.course_id),
          registration_level: Number(level),
          session,
        },
      });
      // Success reloads the page (spec section 4), keeping the level and session chosen.
      window.location.assign(pickerPath(session, level, { registered: "1" }));
    } catch (error) {
      setNotice({ text: (error as Error).message, tone: "error", place: "actions" });
      setRegistering(false);
    }
  }

  async function reset(which: 1 | 2) {
    try {
      await apiRequest("/courses/reset/", {
        method: "POST",
        json: {
          registration_session: session,
          semester: semesterName(which),
          student_id: props.studentId,
          registration_level: Number(level),
        },
      });
      toast.success("Reset successful");
      // A carry-over reset with its semester is required again: reloading selects it.
      await loadRegistered(session);
    } catch (error) {
      toast.error("Reset failed", {
        description: (error as Error).message,
        duration: TOAST_DURATION_MS.error,
      });
    }
  }

  return {
    hydrated,
    session,
    level,
    semester,
    setSemester,
    modifiable,
    view,
    carryOvers,
    registeredHere: markCarryOvers(registeredAtLevel(view.courses, level), carryOvers),
    selected,
    notice,
    setNotice,
    registering,
    loadingCourses,
    offeredNow: (offered[level] ?? []).filter((course) => String(course.semester) === semester),
    chooseLevel,
    chooseSession,
    add,
    remove,
    register,
    reset,
  };
}
