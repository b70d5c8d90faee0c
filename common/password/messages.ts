/** Sentences the password pages show, the spec's exact words; free of zod so scripts can import them. */
export const PASSWORDS_DIFFER = "Password do not match";
export const OPEN_THE_MAIL_LINK = "Click on the verification link sent to your mail";
export const CHECK_YOUR_EMAIL = "Check your email";
export const RESET_LINK_SENT = "We sent a password reset link to your email";
export const MIN_PASSWORD_LENGTH = 8;
