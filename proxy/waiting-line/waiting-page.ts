/**
 * What a student in line is shown (decision 193): a page of about 1.5 KiB that needs no script,
 * no style sheet and no font, refreshes itself, and says their place and how long the wait is
 * expected to be. `data-place` and `data-wait-seconds` let a program (the load simulation) read
 * what a person reads.
 */

export type PlaceInLine = {
  place: number;
  /** Null while the line's speed is still being measured. */
  waitSeconds: number | null;
  /** When the page refreshes itself. */
  refreshSeconds: number;
  /** Where the refresh goes: the page asked for, or the sign-in page after a refused form. */
  refreshTo: string;
};

/**
 * How often a waiting page refreshes: often enough that a student is let in within a few
 * seconds of their turn, and no oftener than an eighth of their wait, because every refresh of
 * ten thousand waiting phones is a request the portal answers and data the student pays for.
 */
export function refreshSeconds(turnInSeconds: number | null): number {
  if (turnInSeconds === null) return 5;
  return Math.min(30, Math.max(3, Math.round(turnInSeconds / 8)));
}

/**
 * The wait a student is told: until the page notices their turn, which it does at its first
 * refresh after the turn comes, half a refresh later on average (and never before the first).
 * Without it the first load run told students near the front "1 second" who then waited 3.
 */
export function expectedWaitSeconds(turnInSeconds: number, refresh: number): number {
  return Math.round(turnInSeconds < refresh ? refresh : turnInSeconds + refresh / 2);
}

export function describeWait(waitSeconds: number | null): string {
  if (waitSeconds === null) {
    return "We are still measuring how fast the line moves: your estimated wait will show here in a moment.";
  }
  if (waitSeconds < 60) return "Estimated wait: less than a minute.";
  const minutes = Math.round(waitSeconds / 60);
  if (minutes < 90) return `Estimated wait: about ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `Estimated wait: about ${hours} hour${hours === 1 ? "" : "s"}${rest ? ` ${rest} minutes` : ""}.`;
}

// Made once: toLocaleString() builds a formatter on every call, a tenth of a millisecond each.
const numberFormat = new Intl.NumberFormat("en-NG");
const number = (value: number) => numberFormat.format(value);
const escapeAttribute = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

export function waitingPage(line: PlaceInLine): string {
  const to = escapeAttribute(line.refreshTo);
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${line.refreshSeconds}; url=${to}">
<title>You are in line — Student portal</title>
<main id="waiting-line" data-place="${line.place}" data-wait-seconds="${line.waitSeconds ?? ""}" style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #1a1a1a">
<h1>You are in line</h1>
<p>Many students are signing in right now, so the portal lets them in in the order they arrived.</p>
<p style="font-size: 1.5rem; margin: 1rem 0"><strong>Your place: ${number(line.place)}</strong></p>
<p>${describeWait(line.waitSeconds)}</p>
<p>Keep this page open. It checks again every ${line.refreshSeconds} seconds and takes you to the sign-in page when it is your turn. Refreshing it does not move you forward or back.</p>
<p>If you close it, you lose nothing you had done: when you come back you join the line again.</p>
<p><a href="${to}" style="color: #0b5394">Check now</a></p>
</main>
</html>
`;
}

export function waitingMessage(line: PlaceInLine): string {
  const wait = line.waitSeconds === null ? "" : ` ${describeWait(line.waitSeconds)}`;
  return (
    `Many students are signing in right now. You are number ${number(line.place)} in line.${wait} ` +
    `Please try again in ${line.refreshSeconds} seconds: you keep your place.`
  );
}
