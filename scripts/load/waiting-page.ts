/**
 * The waiting page of the line at the door (issue 34), as the load simulation reads it: a 503
 * whose page holds `<main id="waiting-line" data-place="N" data-wait-seconds="W">` and refreshes
 * itself with `<meta http-equiv="refresh" content="S; url=PATH">`.
 */
export type WaitingPage = {
  /** 1 = next in. */
  place: number;
  /** The estimated wait the page shows; null while the portal has no estimate yet. */
  waitSeconds: number | null;
  refreshSeconds: number;
  /** Where the refresh goes, as written in the page (relative to the page's address). */
  refreshTo: string;
};

const LINE_MARK = /<main\b[^>]*\bid="waiting-line"[^>]*>/i;
const REFRESH = /<meta\b[^>]*\bhttp-equiv="refresh"[^>]*\bcontent="([^"]*)"/i;

/** Whether an answer's body is the waiting page rather than the per-process "busy" page. */
export const isWaitingPage = (body: string) => LINE_MARK.test(body);

const decodeAttribute = (text: string) =>
  text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCharCode(parseInt(code, 16)))
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

/**
 * What a waiting page says, or what is wrong with it: a page a browser could not follow (no
 * refresh) or a student could not read (no place) is the portal's fault, counted as an error.
 */
export function readWaitingPage(body: string): WaitingPage | { problem: string } {
  const main = LINE_MARK.exec(body)?.[0];
  if (!main) return { problem: "not a waiting page" };
  const place = Number(/\bdata-place="(\d+)"/.exec(main)?.[1] ?? Number.NaN);
  if (!Number.isInteger(place) || place < 1) return { problem: "waiting page without a place" };
  const wait = /\bdata-wait-seconds="(\d*)"/.exec(main)?.[1];
  if (wait === undefined) return { problem: "waiting page without an estimate attribute" };
  const refresh = REFRESH.exec(body)?.[1];
  const parts =
    refresh === undefined
      ? null
      : /^\s*(\d+)\s*(?:;\s*url\s*=\s*(.+?))?\s*$/i.exec(decodeAttribute(refresh));
  if (!parts) return { problem: "waiting page without a refresh" };
  return {
    place,
    waitSeconds: wait === "" ? null : Number(wait),
    refreshSeconds: Number(parts[1]),
    // A refresh without a url reloads the same page.
    refreshTo: parts[2]?.replace(/^(['"])(.*)\1$/, "$2") ?? "",
  };
}

/** One student's time in line, from the first waiting page to the answer that let them in. */
export type LineEpisode = {
  /** When the first waiting page arrived (ms since the epoch). */
  firstPageAt: number;
  /** The estimate on that first page, in seconds; null when it showed none. */
  firstPageEstimateSeconds: number | null;
  /** The first estimate the student was shown, and when (ms since the epoch); null if never. */
  firstEstimate: { seconds: number; shownAt: number } | null;
  /** The place on the first page; null for a JSON sign-in refused for the line (no place in it). */
  firstPlace: number | null;
  /** The highest place shown; null likewise. */
  maxPlace: number | null;
  /** The last place shown, to tell whether the student went back in line. */
  lastPlace: number | null;
  /** Waiting pages (or JSON refusals) answered. */
  pages: number;
  /** When the answer that let them in arrived; null if it never did. */
  admittedAt: number | null;
};

/** What the report and its CSV say of one student. */
export type StudentRecord = {
  studentId: number;
  /** When their visit began (ms since the epoch). */
  arrivedAt: number;
  /** Their first time in line; null if they never met it. */
  line: LineEpisode | null;
  /** Times they met the line in their visit (a second time only if their admission ran out). */
  timesInLine: number;
  /** The portal answered them something other than the line. */
  admitted: boolean;
  /** They went through to the end of their visit. */
  finished: boolean;
  /** How the line lost them, if it did. */
  lost: string | null;
};

/** The wait from the first waiting page to admission, ms; null if not admitted. */
export const actualWaitMs = (line: LineEpisode) =>
  line.admittedAt === null ? null : line.admittedAt - line.firstPageAt;
