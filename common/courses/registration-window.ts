/** A session's registration switch and optional dates (YYYY-MM-DD, both days included). */
export type RegistrationWindow = {
  name: string;
  courseModifiable: boolean;
  registrationOpensOn: string | null;
  registrationClosesOn: string | null;
};

export type WindowState = "closed" | "not-yet-open" | "open" | "ended";

/** "31 January 2025" for a YYYY-MM-DD date. */
export const spelledDate = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });

/** Whether students may change their registration for the session on the college's date `today`. */
export function windowState(session: RegistrationWindow, today: string): WindowState {
  if (!session.courseModifiable) return "closed";
  if (session.registrationOpensOn && today < session.registrationOpensOn) return "not-yet-open";
  if (session.registrationClosesOn && today > session.registrationClosesOn) return "ended";
  return "open";
}

/** Why a student cannot change their registration now, in words they understand; null when they can. */
export function windowRefusal(session: RegistrationWindow, today: string): string | null {
  switch (windowState(session, today)) {
    case "open":
      return null;
    case "not-yet-open":
      return `Course registration for ${session.name} opens on ${spelledDate(session.registrationOpensOn!)}. Please come back then.`;
    case "ended":
      return `Course registration for ${session.name} closed on ${spelledDate(session.registrationClosesOn!)}. See the registry if you still need to register.`;
    case "closed":
      return `Course registration for ${session.name} is closed; it can no longer change.`;
  }
}

/**
 * Why an adviser cannot return a semester now: the student could not change it outside the same
 * window, so it would sit returned until the registry opened registration. Null when they can.
 */
export function returnRefusal(session: RegistrationWindow, today: string): string | null {
  switch (windowState(session, today)) {
    case "open":
      return null;
    case "not-yet-open":
      return `Course registration for ${session.name} opens on ${spelledDate(session.registrationOpensOn!)}, so the student could not change the semester before then. Return it from that day, or approve it.`;
    case "ended":
      return `Course registration for ${session.name} closed on ${spelledDate(session.registrationClosesOn!)}, so the student could not change the semester. Approve it, or ask the registry to extend the closing date.`;
    case "closed":
      return `Course registration for ${session.name} is closed, so the student could not change the semester. Approve it, or ask the registry to reopen the session.`;
  }
}
