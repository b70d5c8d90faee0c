import { z } from "zod";

/** The languages the USSD menu speaks (decision 202); the menu's language item lists them in this order. */
export const USSD_LANGUAGES = ["en", "ha", "yo", "ig"] as const;
export type UssdLanguage = (typeof USSD_LANGUAGES)[number];

/**
 * A PIN anyone would try first: one digit four times, or four in a row up or down. With three
 * tries before the lock, refusing these is most of what a 4-digit PIN can be made to resist.
 */
export function isGuessablePin(pin: string): boolean {
  const digits = [...pin].map(Number);
  const steps = new Set(digits.slice(1).map((digit, index) => digit - digits[index]!));
  return steps.size === 1 && [0, 1, -1].includes([...steps][0]!);
}

/** `PUT /student/ussd-pin`: a new PIN, twice, and the student's password to show it is them. */
export const UssdPinRequest = z
  .object({
    pin: z
      .string({ error: "Enter a 4-digit PIN." })
      .regex(/^\d{4}$/, { error: "A USSD PIN is 4 digits." })
      .refine((pin) => !isGuessablePin(pin), {
        error: "Choose a PIN that is harder to guess than 1111 or 1234.",
      }),
    pin_again: z.string({ error: "Enter the PIN again." }).max(10),
    password: z
      .string({ error: "Enter your password." })
      .min(1, { error: "Enter your password." })
      .max(200),
  })
  .refine((request) => request.pin === request.pin_again, {
    path: ["pin_again"],
    error: "The two PINs are not the same.",
  });
export type UssdPinRequest = z.infer<typeof UssdPinRequest>;

/** `GET /student/ussd-pin`: whether a PIN is set, whether the menu is locked, and the code to dial. */
export const UssdPinState = z.object({
  pin_set_at: z.string().nullable(),
  locked_until: z.string().nullable(),
  /** The code the college's students dial (USSD_CODE), when the college has one. */
  dial_code: z.string().nullable(),
});
export type UssdPinState = z.infer<typeof UssdPinState>;
export const UssdPinStateAnswer = z.object({ data: UssdPinState });

export const USSD_PIN_SAVED = "Your USSD PIN is saved. Use it the next time you dial.";
export const USSD_PIN_WRONG_PASSWORD = "Your password is not right. Your USSD PIN was not changed.";
