import { z } from "zod";

const DAYS_MESSAGE = "Give days as a whole number from 1 to 90.";

/** `GET /staff/sms/daily`: how many days back, today included (the bursary's cost watch; decision 200). */
export const SmsUsageQuery = z.object({
  days: z.coerce
    .number({ error: DAYS_MESSAGE })
    .int(DAYS_MESSAGE)
    .min(1, DAYS_MESSAGE)
    .max(90, DAYS_MESSAGE)
    .default(30),
});

/** One day (Lagos time) of text messages: each outcome's count, and the cost the provider reported. */
export const SmsUsageDay = z.object({
  day: z.string(),
  sent: z.number().int(),
  refused: z.number().int(),
  waiting: z.number().int(),
  /** e.g. "NGN 44.00"; null where the provider reported no cost (the development outbox). */
  cost: z.string().nullable(),
});
export type SmsUsageDay = z.infer<typeof SmsUsageDay>;
/** SMS_DAILY_CAP and the messages queued so far today (Lagos), when a cap is set (decision 201). */
export const SmsDailyCap = z.object({ limit: z.number().int(), queued_today: z.number().int() });
export type SmsDailyCap = z.infer<typeof SmsDailyCap>;
export const SmsUsage = z.object({
  data: z.object({ days: z.array(SmsUsageDay), cap: SmsDailyCap.nullable() }),
});
