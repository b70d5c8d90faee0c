import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { parseMail } from "./mime.ts";

/** A message as the test SMTP server received it. */
export type ReceivedMail = {
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** Envelope recipients (RCPT TO). */
  to: string[];
  subject: string;
  /** The text/plain body, decoded (quoted-printable or base64 undone), so links read intact. */
  text: string;
  html?: string;
  /** Header values by lower-case name. */
  headers: Map<string, string>;
  /** The message exactly as sent after DATA. */
  raw: string;
};

/** A running test SMTP server; see {@link startTestSmtpServer}. */
export type TestSmtpServer = {
  /** `smtp://127.0.0.1:<port>`, ready for `createSmtpMailer`. */
  url: string;
  /** Every message received so far, oldest first. */
  messages: ReceivedMail[];
  /** The first message (received or yet to come) that matches; rejects after `timeoutMs`. */
  waitForMessage(
    predicate?: (mail: ReceivedMail) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedMail>;
  close(): Promise<void>;
};

type Waiter = { predicate: (mail: ReceivedMail) => boolean; resolve: (mail: ReceivedMail) => void };

/**
 * Starts a real SMTP server on 127.0.0.1 at a free port, for tests that send mail. Plain text
 * (no STARTTLS); any user name and password is accepted, and none is needed.
 */
export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  let waiters: Waiter[] = [];

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", callback);
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const mailFrom = session.envelope.mailFrom;
        const mail: ReceivedMail = {
          from: mailFrom ? mailFrom.address : "",
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw,
          ...parseMail(raw),
        };
        messages.push(mail);
        const ready = waiters.filter((waiter) => waiter.predicate(mail));
        waiters = waiters.filter((waiter) => !ready.includes(waiter));
        for (const waiter of ready) waiter.resolve(mail);
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMessage(predicate = () => true, timeoutMs = 5_000) {
      const received = messages.find(predicate);
      if (received) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          predicate,
          resolve(mail) {
            clearTimeout(timer);
            resolve(mail);
          },
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((other) => other !== waiter);
          const seen = messages.map((mail) => `"${mail.subject}" to ${mail.to.join(", ")}`);
          reject(
            new Error(
              `No matching mail arrived within ${timeoutMs} ms; received: ${seen.join("; ") || "none"}.`,
            ),
          );
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
