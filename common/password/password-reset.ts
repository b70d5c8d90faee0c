import { z } from "zod";
import { MIN_PASSWORD_LENGTH, OPEN_THE_MAIL_LINK, PASSWORDS_DIFFER } from "./messages.ts";
import { NigerianPhone } from "../validation/person.ts";

/** `POST /password/request-reset-email/` (spec section 7). */
export const ResetEmailRequest = z.object({
  email: z
    .string({ error: "Enter your e-mail address." })
    .trim()
    .min(1, "Enter your e-mail address.")
    .max(254, "That e-mail address is too long.")
    .pipe(z.email("Enter a valid e-mail address, e.g. name@example.com.")),
  /** Where the link in the mail should lead; only our own public origin is accepted. */
  redirect_url: z.string().max(2000, "That redirect_url is too long.").optional(),
});
export type ResetEmailRequest = z.infer<typeof ResetEmailRequest>;

const NewPassword = z
  .string({ error: "Enter a new password." })
  .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters for your new password.`)
  .max(200, "That password is too long; use at most 200 characters.");

const confirmationMatches = <T extends { password: string; confirm_password?: string }>(body: T) =>
  body.confirm_password === undefined || body.confirm_password === body.password;

/** `PATCH /password/password-reset-complete` (spec section 7), plus an optional confirmation. */
export const ResetCompleteRequest = z
  .object({
    password: NewPassword,
    confirm_password: z.string().optional(),
    token: z.string({ error: OPEN_THE_MAIL_LINK }).min(1, OPEN_THE_MAIL_LINK).max(200),
    uidb64: z.string({ error: OPEN_THE_MAIL_LINK }).min(1, OPEN_THE_MAIL_LINK).max(200),
  })
  .refine(confirmationMatches, { message: PASSWORDS_DIFFER, path: ["confirm_password"] });
export type ResetCompleteRequest = z.infer<typeof ResetCompleteRequest>;

/**
 * `POST /password/reset-link-check`: whether a mailed link can still set a password, asked when
 * its page opens so a used or expired link is refused before the student types anything. The
 * token rides in the body, not the address, so no log line carries it.
 */
export const ResetLinkCheck = z.object({
  token: z.string({ error: OPEN_THE_MAIL_LINK }).min(1, OPEN_THE_MAIL_LINK).max(200),
  uidb64: z.string({ error: OPEN_THE_MAIL_LINK }).min(1, OPEN_THE_MAIL_LINK).max(200),
});
export type ResetLinkCheck = z.infer<typeof ResetLinkCheck>;

/** Both password endpoints answer a sentence the page can show. */
export const PasswordAnswer = z.object({ status: z.literal("success"), message: z.string() });

/** `POST /password/request-reset-code`: a 6-digit code by SMS to the phone on the record (decision 200). */
export const ResetCodeRequest = z.object({
  phone: NigerianPhone,
});
export type ResetCodeRequest = z.infer<typeof ResetCodeRequest>;

const CODE_MESSAGE = "Enter the 6-digit code from the SMS.";

/** `POST /password/reset-with-code`: the code from the SMS and the new password. */
export const ResetWithCodeRequest = z
  .object({
    phone: NigerianPhone,
    code: z
      .string({ error: CODE_MESSAGE })
      .transform((value) => value.replace(/\s/g, ""))
      .pipe(z.string().regex(/^\d{6}$/, CODE_MESSAGE)),
    password: NewPassword,
    confirm_password: z.string().optional(),
  })
  .refine(confirmationMatches, { message: PASSWORDS_DIFFER, path: ["confirm_password"] });
export type ResetWithCodeRequest = z.infer<typeof ResetWithCodeRequest>;
