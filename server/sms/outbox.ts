import { z } from "zod";
import { smsSegments } from "./gsm7.ts";
import type { SmsSender } from "./sms-message.ts";
import { outboxFolder, readNewest } from "../mail/outbox-folder.ts";

/** A text message as the outbox keeps it: one JSON file each. */
export const SmsOutboxMessage = z.object({
  id: z.string(),
  to: z.string(),
  text: z.string(),
  segments: z.number().int().positive(),
  sentAt: z.iso.datetime(),
});
export type SmsOutboxMessage = z.infer<typeof SmsOutboxMessage>;

/**
 * An SMS sender for development and tests: each message becomes `<id>.json` in `dir`, as the mail
 * outbox's do, where `/api/dev/sms-outbox` shows it (decision 200). No provider, no cost.
 */
export function createSmsOutbox(options: { dir: string }): SmsSender {
  const write = outboxFolder(options.dir);
  return {
    async send({ to, text }) {
      const stored = await write((id, sentAt): SmsOutboxMessage => ({
        id,
        to,
        text,
        segments: smsSegments(text),
        sentAt,
      }));
      return { providerMessageId: `outbox-${stored.id}` };
    },
    describe: () => `SMS outbox ${options.dir}`,
  };
}

/** The newest `limit` messages in the outbox, newest first; none when `dir` does not exist. */
export function readSmsOutbox(dir: string, limit = 100): Promise<SmsOutboxMessage[]> {
  return readNewest(dir, SmsOutboxMessage, limit);
}
