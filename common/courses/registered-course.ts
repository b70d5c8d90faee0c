import { z } from "zod";
import { CARRY_OVER_STATES } from "./carry-overs.ts";

/** A course as the catalogue and registration endpoints answer it (spec section 3). */
export const Course = z.object({
  id: z.number().int(),
  course_id: z.number().int(),
  code: z.string(),
  title: z.string(),
  /** Units as a numeric string, as the spec's API sends them. */
  unit: z.string(),
  semester: z.union([z.literal(1), z.literal(2)]),
  registration_level: z.number().int().optional(),
  /** Ours, beyond the spec: a compulsory course failed before, registered again (decision 180). */
  carry_over: z.boolean().optional(),
});
export type Course = z.infer<typeof Course>;

/** One carry-over as GET /courses/carry-overs answers it: the course and where it stands. */
export const CarryOver = Course.extend({
  state: z.enum(CARRY_OVER_STATES),
  /** Why it waits for a later session; null unless waiting. */
  waiting_reason: z.string().nullable(),
});
export type CarryOver = z.infer<typeof CarryOver>;

/** GET /courses/carry-overs?session=…: the session's carry-overs, oldest first. */
export const CarryOverList = z.object({
  data: z.object({ session: z.string().nullable(), carry_overs: z.array(CarryOver) }),
});
export type CarryOverList = z.infer<typeof CarryOverList>;

/** A Course Advisor's approval of one semester of a session's registration. */
export const Approval = z.object({
  semester: z.union([z.literal(1), z.literal(2)]),
  approved_by: z.string(),
  /** ISO date-time. */
  approved_at: z.string(),
});
export type Approval = z.infer<typeof Approval>;

/** A semester the Course Advisor sent back: the student changes it and it is pending again. */
export const ReturnedSemester = z.object({
  semester: z.union([z.literal(1), z.literal(2)]),
  returned_by: z.string(),
  /** ISO date-time. */
  returned_at: z.string(),
  note: z.string(),
});
export type ReturnedSemester = z.infer<typeof ReturnedSemester>;

/** GET /courses/student-view: the registered courses plus the advisor's approvals and returns. */
export const StudentView = z.object({
  data: z.array(Course),
  approvals: z.array(Approval),
  returns: z.array(ReturnedSemester),
});
export type StudentView = z.infer<typeof StudentView>;

/**
 * GET /courses/picker-view?session=…: what the course picker shows of a session, student-view's
 * answer (every level) and carry-overs' answer from one read (decision 204); session null when
 * none was asked and none is current.
 */
export const PickerView = z.object({
  data: z.object({
    session: z.string().nullable(),
    view: StudentView,
    carry_overs: z.array(CarryOver),
  }),
});
export type PickerView = z.infer<typeof PickerView>;

/** GET /courses/mapped/read and GET /courses/all/: a list under data.data. */
export const CourseList = z.object({ data: z.object({ data: z.array(Course) }) });
export type CourseList = z.infer<typeof CourseList>;

/** An academic session as GET /setup/sessions/read answers it (spec section 3). */
export const AcademicSession = z.object({
  id: z.number().int(),
  name: z.string(),
  course_modifiable: z.boolean(),
  /** Ours, beyond the spec: the session the registry marked current (absent from other APIs). */
  is_current: z.boolean().optional(),
});
export type AcademicSession = z.infer<typeof AcademicSession>;

export const SessionList = z.object({ data: z.object({ data: z.array(AcademicSession) }) });

/** What the registration slip prints for one level and session (GET /courses/validated/first/{level}). */
export const RegistrationSlip = z.object({
  level: z.number().int(),
  session: z.string(),
  first_semester: z.array(Course),
  second_semester: z.array(Course),
  approvals: z.array(Approval),
});
export type RegistrationSlip = z.infer<typeof RegistrationSlip>;

/** The slip endpoint answers data.data[0]; an empty list means nothing is registered. */
export const SlipResponse = z.object({ data: z.object({ data: z.array(RegistrationSlip) }) });

/** POST /courses/register on success (201). */
export const RegisterAnswer = z.object({
  message: z.string(),
  data: z.object({ registered: z.number().int(), units: z.number().int() }),
});

/** POST /courses/reset/ on success. */
export const ResetAnswer = z.object({
  message: z.string(),
  data: z.object({ removed: z.number().int() }),
});

/** A student's registered courses, as /courses/student-view answers them. */
export const RegisteredCourses = z.array(Course);
