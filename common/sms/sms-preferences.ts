import { z } from "zod";

/** The news a student may choose to get by SMS (decisions 200, 201); codes and receipts always go. */
export const SMS_NEWS = ["registration_news", "results_news", "deadline_reminders"] as const;
export type SmsNews = (typeof SMS_NEWS)[number];

const choice = (what: string) =>
  z.boolean({ error: `Say whether to text ${what}: true or false.` });

/** `PUT /student/sms-preferences`: which optional messages the student gets by SMS, every one. */
export const SmsPreferencesRequest = z.object({
  registration_news: choice("course registration news"),
  results_news: choice("results news"),
  deadline_reminders: choice("deadline reminders"),
});
export type SmsPreferencesRequest = z.infer<typeof SmsPreferencesRequest>;

/** What `GET` and `PUT /student/sms-preferences` answer. */
export const SmsPreferences = SmsPreferencesRequest.extend({
  /** When the student replied STOP, if they did and have not chosen again since. */
  stopped_at: z.string().nullable(),
});
export type SmsPreferences = z.infer<typeof SmsPreferences>;
export const SmsPreferencesAnswer = z.object({ data: SmsPreferences });

export const SMS_PREFERENCES_SAVED = "Your text message choices are saved.";
