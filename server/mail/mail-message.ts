/** One e-mail to one recipient. `text` is always sent; `html` is an optional alternative. */
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
};

/** Sends mail somewhere: a real SMTP server or the local development outbox. */
export type Mailer = {
  /** Resolves once the message is accepted; rejects with an Error that never holds a password. */
  send(message: MailMessage): Promise<void>;
  /** Where mail goes, for start-up logs, e.g. "SMTP smtp.example.org:587". Never a password. */
  describe(): string;
};
