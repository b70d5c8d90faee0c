import { z } from "zod";

/** The student's approved programme as the admissions record carries it (spec: admin_response). */
export const AdminResponse = z.object({
  approved_program: z.object({ name: z.string(), faculty_name: z.string() }),
});

export const PaymentComplete = z.enum(["full", "part"]).nullable();
export type PaymentComplete = z.infer<typeof PaymentComplete>;

/** A student as the API answers it (spec section 3), with snake_case names the pages read. */
export const StudentRecord = z.object({
  id: z.number().int(),
  title: z.string().nullable(),
  surname: z.string(),
  othername: z.string(),
  username: z.string().nullable(),
  phone: z.string(),
  email: z.string(),
  /** Same-origin URL of the passport photo, or null when the student has none. */
  photo: z.string().nullable(),
  matric_no: z.string().nullable(),
  application_no: z.string(),
  department: z.string(),
  course_of_study: z.string(),
  faculty: z.string(),
  programme: z.string(),
  entry_session: z.string(),
  entry_mode: z.string(),
  study_mode: z.string(),
  level: z.number().int(),
  stage: z.string(),
  marital_status: z.string().nullable(),
  religion: z.string().nullable(),
  dob: z.number().int().nullable(),
  mob: z.number().int().nullable(),
  yob: z.number().int().nullable(),
  country_origin: z.string().nullable(),
  state_origin: z.string().nullable(),
  lga_origin: z.string().nullable(),
  payment_complete: PaymentComplete,
  biodata_locked: z.boolean(),
  /** Ours, not the spec's: why the registry locked the biodata (an existing college API may not send it). */
  biodata_lock_reason: z.string().nullish(),
  admin_response: z.array(AdminResponse),
  updated_at: z.string(),
});
export type StudentRecord = z.infer<typeof StudentRecord>;

export const fullName = (student: Pick<StudentRecord, "surname" | "othername">) =>
  `${student.surname} ${student.othername}`.trim();

/** Enough of /student/me to tell that a session is still live. */
export const SignedInProbe = z.object({ data: z.object({ id: z.number() }) });
