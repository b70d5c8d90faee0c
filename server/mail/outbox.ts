import { z } from "zod";
import type { Mailer } from "./mail-message.ts";
import { outboxFolder, readNewest, readOne } from "./outbox-folder.ts";

/** A message as stored in the outbox: one JSON file per message. */
export const OutboxMessage = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().optional(),
  replyTo: z.string().optional(),
  sentAt: z.iso.datetime(),
});
export type OutboxMessage = z.infer<typeof OutboxMessage>;

const DEFAULT_LIMIT = 100;

/** A mailer for development: each message becomes `<id>.json` in `dir` (server/mail/outbox-folder.ts). */
export function createOutboxMailer(options: { dir: string; from: string }): Mailer {
  const write = outboxFolder(options.dir);
  return {
    async send({ to, subject, text, html, replyTo }) {
      await write((id, sentAt): OutboxMessage => ({
        id,
        from: options.from,
        to,
        subject,
        text,
        html,
        replyTo,
        sentAt,
      }));
    },
    describe: () => `outbox ${options.dir}`,
  };
}

/** The newest `limit` messages in the outbox, newest first; none when `dir` does not exist. */
export function readOutbox(dir: string, limit = DEFAULT_LIMIT): Promise<OutboxMessage[]> {
  return readNewest(dir, OutboxMessage, limit);
}

/** One outbox message by id, or undefined when there is none (or the id is not an outbox id). */
export function readOutboxMessage(dir: string, id: string): Promise<OutboxMessage | undefined> {
  return readOne(dir, id, OutboxMessage);
}
