/**
 * Where the line's state lives, so that every proxy of the portal sees one line (decision 193):
 * PostgreSQL (or PGlite) through server/waiting-line/line-store.ts. Two numbers say everything:
 * the last ticket handed out and the last ticket admitted; the place of ticket n is
 * n − admittedThrough.
 */
export type LineNumbers = {
  issuedThrough: number;
  admittedThrough: number;
  /** The door is held: every newcomer waits and no one is admitted until it is let go. */
  held: boolean;
};

export type WaitingLineStore = {
  /** A new ticket: the next number, in order of arrival across every proxy. */
  join(): Promise<number>;
  read(): Promise<LineNumbers>;
  /** Lets up to `tickets` more in, never past the last ticket handed out (none while held). */
  admit(tickets: number): Promise<LineNumbers>;
  /** True the first time a ticket is exchanged for a pass, false for a copy of it. */
  exchange(ticket: number): Promise<boolean>;
};
