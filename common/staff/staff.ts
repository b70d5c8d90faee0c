import { z } from "zod";
import { RecordId } from "../validation/lists.ts";

/** What a staff member may do; one account can hold several (docs/decisions/080). */
export const StaffRole = z.enum(
  ["registry", "adviser", "bursar", "support", "admin", "lecturer", "hod", "exams"],
  { error: "Choose roles from: registry, adviser, bursar, support, admin, lecturer, hod, exams." },
);
export type StaffRole = z.infer<typeof StaffRole>;

/**
 * Roles that move money or accounts, or publish the record that becomes a certificate: their
 * holders must sign in with a TOTP code too.
 */
export const ROLES_NEEDING_TOTP: readonly StaffRole[] = ["admin", "bursar", "exams"];

export const ROLE_LABELS: Record<StaffRole, string> = {
  registry: "Registry",
  adviser: "Course adviser",
  bursar: "Bursary",
  support: "Help desk",
  admin: "Administrator",
  lecturer: "Lecturer",
  hod: "Head of department",
  exams: "Exams and records",
};

/**
 * How far a staff session has got: `code` waits for the authenticator code, `enrol` must set up
 * an authenticator first (admin and bursar), `ready` may work.
 */
export const SignInStage = z.enum(["code", "enrol", "ready"]);
export type SignInStage = z.infer<typeof SignInStage>;

/** A department and level a course adviser advises. */
export const AdviserScope = z.object({
  department_id: RecordId("Choose a department from the list."),
  level: z.coerce
    .number()
    .int()
    .refine((level) => [100, 200, 300, 400, 500].includes(level), {
      message: "Levels are 100, 200, 300, 400 or 500.",
    }),
});
export type AdviserScope = z.infer<typeof AdviserScope>;

/** A staff account as the staff pages see it (never the password or TOTP secret). */
export const StaffAccount = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  roles: z.array(StaffRole),
  active: z.boolean(),
  totp_enrolled: z.boolean(),
  password_set: z.boolean(),
  advises: z.array(
    z.object({ department_id: z.number(), department: z.string(), level: z.number() }),
  ),
  /** Wrong passwords counted on the account; `slowed`: some network must wait before its next try. */
  sign_in: z.object({ failures: z.number(), slowed: z.boolean() }).optional(),
});
export type StaffAccount = z.infer<typeof StaffAccount>;

export const StaffMe = z.object({ data: StaffAccount.extend({ stage: SignInStage }) });
export type StaffMe = z.infer<typeof StaffMe>;

const email = z
  .string({ error: "Enter an e-mail address." })
  .trim()
  .toLowerCase()
  .max(200, "That e-mail address is too long.")
  .pipe(z.email("Enter a valid e-mail address, like name@college.edu.ng."));

export const StaffLoginRequest = z.object({
  email,
  password: z
    .string({ error: "Enter your password." })
    .min(1, "Enter your password.")
    .max(200, "That password is too long."),
});

/** Six digits from the authenticator app, or one recovery code (xxxx-xxxx-xxxx). */
export const SecondFactorRequest = z.object({
  code: z
    .string({ error: "Enter the code from your authenticator app." })
    .trim()
    .min(1, "Enter the code from your authenticator app.")
    .max(20, "That code is too long."),
});

/** Binding an authenticator takes the account's password again (decision 163). */
export const EnrolConfirmRequest = SecondFactorRequest.extend({
  password: z
    .string({ error: "Enter your password to set up the authenticator." })
    .min(1, "Enter your password to set up the authenticator.")
    .max(200, "That password is too long."),
});

const roles = z
  .array(StaffRole)
  .min(1, "Give the account at least one role.")
  .transform((list) => [...new Set(list)]);

export const CreateStaffRequest = z.object({
  name: z
    .string({ error: "Enter the staff member's name." })
    .trim()
    .min(2, "Enter the staff member's name.")
    .max(120, "That name is too long."),
  email,
  roles,
  advises: z
    .array(AdviserScope)
    .max(100, "An adviser can advise at most 100 department levels.")
    .default([]),
});

const advises = CreateStaffRequest.shape.advises.unwrap();

export const UpdateStaffRequest = z
  .object({
    name: CreateStaffRequest.shape.name.optional(),
    roles: roles.optional(),
    active: z.boolean().optional(),
    advises: advises.optional(),
  })
  .refine((change) => Object.values(change).some((value) => value !== undefined), {
    message: "Nothing to change.",
  });

export const SetStaffPasswordRequest = z.object({
  token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, "This link is not valid. Ask an administrator for a new one."),
  password: z
    .string({ error: "Choose a password." })
    .min(10, "Choose a password of at least 10 characters.")
    .max(200, "That password is too long."),
});

export const StaffDepartments = z.object({
  data: z.array(z.object({ id: z.number(), name: z.string(), faculty: z.string() })),
});
export const StaffAccounts = z.object({ data: z.array(StaffAccount) });
