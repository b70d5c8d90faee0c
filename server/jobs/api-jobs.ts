import type { Database, Transaction } from "../db/client.ts";
import type { MailMessage } from "../mail/mail-message.ts";
import type { QueuedSms } from "./send-sms.ts";

/** The background jobs the API hands over: durable in the database, retried with back-off (decisions 096, 124). */
export type JobQueue = {
  /**
   * Queues an e-mail through `db`: inside a transaction it is sent only if that transaction
   * commits (pass the one that writes the token or record the mail speaks of), and retried until
   * it is sent. Every e-mail the API sends goes this way, none straight to the mail server.
   */
  sendMail(db: Database | Transaction, message: MailMessage): Promise<void>;
  /**
   * Queues a text message through `db`, as sendMail does, once per `key`: queued again under the
   * same key (a retried request, a second click), nothing more is queued (decision 200). Answers
   * whether this call queued it.
   */
  sendSms(db: Database | Transaction, message: QueuedSms): Promise<boolean>;
};
