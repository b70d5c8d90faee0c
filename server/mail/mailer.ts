import { createTransport } from "nodemailer";

export { createOutboxMailer, readOutbox, readOutboxMessage } from "./outbox.ts";
export type { OutboxMessage } from "./outbox.ts";

export type { Mailer, MailMessage } from "./mail-message.ts";
import type { Mailer, MailMessage } from "./mail-message.ts";

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * A mailer that delivers through the SMTP server named by an `smtp://` or `smtps://` URL
 * (credentials and nodemailer options such as `?tls.rejectUnauthorized=false` may ride in it).
 * Connecting, waiting for the greeting and an idle socket each give up after `timeoutMs`.
 */
export function createSmtpMailer(options: {
  url: string;
  from: string;
  timeoutMs?: number;
}): Mailer {
  const target = parseSmtpUrl(options.url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const transport = createTransport({
    url: options.url,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
  });
  const description = `${target.secure ? "SMTPS" : "SMTP"} ${target.host}:${target.port}`;

  return {
    async send(message) {
      try {
        await transport.sendMail({ from: options.from, ...message });
      } catch (error) {
        throw sendError(error, description, target.secrets);
      }
    },
    describe: () => description,
  };
}

type SmtpTarget = { host: string; port: number; secure: boolean; secrets: string[] };

function parseSmtpUrl(url: string): SmtpTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // The URL may carry a password, so it is not repeated in the message.
    throw new Error("SMTP_URL is not a valid URL; expected smtp://user:password@host:port.");
  }
  if (parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:") {
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, not ${parsed.protocol}//.`);
  }
  const secure = parsed.protocol === "smtps:";
  // Same defaults as nodemailer, so the description names the port actually used.
  const port = Number(parsed.port) || (secure ? 465 : 587);
  return { host: parsed.hostname, port, secure, secrets: secretForms(parsed.password) };
}

/** The password as written in the URL and decoded, so either spelling can be redacted. */
function secretForms(encodedPassword: string): string[] {
  if (!encodedPassword) return [];
  let decoded = encodedPassword;
  try {
    decoded = decodeURIComponent(encodedPassword);
  } catch {
    // A malformed escape is used verbatim by nodemailer too.
  }
  return [...new Set([encodedPassword, decoded])];
}

/**
 * A fresh Error rather than nodemailer's: its extra fields (e.g. `command` of an AUTH
 * exchange) can hold credentials, and loggers print every field.
 */
function sendError(error: unknown, description: string, secrets: string[]): Error {
  let reason = error instanceof Error ? error.message : String(error);
  for (const secret of secrets) reason = reason.replaceAll(secret, "***");
  const failure = new Error(`Could not send mail through ${description}: ${reason}`);
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") Object.assign(failure, { code });
  return failure;
}
