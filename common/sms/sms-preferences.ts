import { z } from "zod";

/** `PUT /student/sms-preferences`: which optional messages the student gets by SMS (decision 200). */
export const SmsPreferencesRequest = z.object({
  registration_news: z.boolean({
    error: "Say whether to text course registration news: true or false.",
  }),
});
export type SmsPreferencesRequest = z.infer<typeof SmsPreferencesRequest>;

/** What `GET` and `PUT /student/sms-preferences` answer. */
export const SmsPreferences = z.object({
  registration_news: z.boolean(),
  /** When the student replied STOP, if they did and have not chosen again since. */
  stopped_at: z.string().nullable(),
});
export type SmsPreferences = z.infer<typeof SmsPreferences>;
export const SmsPreferencesAnswer = z.object({ data: SmsPreferences });

export const SMS_PREFERENCES_SAVED = "Your text message choices are saved.";
