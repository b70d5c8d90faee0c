import { performance } from "node:perf_hooks";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { Agent, request, type Dispatcher } from "undici";
import { SITE_CSS_PATH } from "../../common/http/site-stylesheet.ts";
import type { StepRecorder } from "./stats.ts";
import {
  isWaitingPage,
  readWaitingPage,
  type LineEpisode,
  type StudentRecord,
} from "./waiting-page.ts";

/** A step that did not go as a browser would need: already recorded; the student stops here. */
export class StepFailed extends Error {
  readonly step: string;
  readonly problem: string;
  constructor(step: string, problem: string) {
    super(`${step}: ${problem}`);
    this.step = step;
    this.problem = problem;
  }
}

/** What a request must answer to count as a success. */
export type Expect = {
  status: number;
  /** Text the page or answer must contain, so an error page served with 200 is not a success. */
  marker?: string;
  /** The start of the Location header of a redirect. */
  location?: string;
  /** Says what is wrong with the body, if anything. */
  check?: (body: string) => string | null;
  /**
   * A refusal the student will try again, as a person presses the button again when a gateway
   * is down: recorded as tried again rather than as an error, and thrown for the caller to retry.
   */
  retryable?: boolean;
};

/** Errors of the connection itself: the process serving it died (or was killed) mid-request. */
const DROPPED = new Set(["UND_ERR_SOCKET", "ECONNRESET", "ECONNREFUSED", "EPIPE"]);

export type Answer = { status: number; location: string | null; body: string; url: string };

/** A cookie an answer set: `value` null when it was deleted; `before`, what the jar held. */
type CookieSet = { name: string; value: string | null; before: string | null };

type Received = Answer & {
  retryAfterSeconds: number | null;
  contentType: string | null;
  cookiesSet: CookieSet[];
};

/**
 * A student comes back this many times after "busy" before the step counts as failed: the sign-in
 * form's own patience (src/lib/session/sign-in-form.client.ts), about three minutes; a busy page reloads
 * itself for as long as it is open.
 */
const MAX_BUSY_ANSWERS = 20;

/**
 * An answer's body as the browser reads it. Decoded whole, once it has all arrived: a streaming
 * decoder per answer (undici's decompress interceptor) was a quarter of the simulation's profile
 * and twice the CPU per page, taken from the portal it measures on the same two cores (decision 112).
 */
export function decodedText(body: Buffer, contentEncoding: string | null) {
  const encoding = contentEncoding?.trim().toLowerCase() ?? "identity";
  if (encoding === "gzip" || encoding === "x-gzip") return gunzipSync(body).toString("utf8");
  if (encoding === "br") return brotliDecompressSync(body).toString("utf8");
  if (encoding === "deflate") return inflateSync(body).toString("utf8");
  if (encoding === "identity" || encoding === "") return body.toString("utf8");
  throw new Error(`answer in an encoding the browser did not ask for: ${encoding}`);
}

/** The step the site stylesheet's request is counted under, apart from the page that asked for it. */
export const SITE_STYLESHEET_STEP = "site stylesheet";

/**
 * Links in a page to the site stylesheet (decision 203): the prefetch a first page ends with, or
 * the stylesheet link of a page asked with its cookie. Other files (/_astro/, images) are not
 * fetched by the simulation: they are static, not the portal's pages.
 */
const SITE_STYLESHEET_LINK = new RegExp(
  `<link rel="(prefetch|stylesheet)" href="(${SITE_CSS_PATH.replace(".", "\\.")}(?:\\?[^"]*)?)"`,
  "g",
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The page shows this (with a Retry link) when one of its API reads failed; the page is still 200.
const PART_NOT_LOADED = "We could not load";

const USER_AGENT =
  "Mozilla/5.0 (Linux; Android 13; registration-week load simulation) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";

/**
 * One student's browser: its own connections, bound to the student's client address, its own
 * cookies, and the headers a browser sends (Origin and Referer on posts, Sec-Fetch-*), so the
 * proxy's same-origin and host checks treat it as it treats a student. Each request is timed from
 * sending to the last byte of the body and recorded under its step.
 */
export class VirtualBrowser {
  private readonly dispatcher: Dispatcher;
  readonly recorder: StepRecorder;
  private readonly timeoutMs: number;
  private readonly cookies = new Map<string, Map<string, string>>();
  /** Sends a request again once when its connection is dropped (a killed worker), as a reload does. */
  private readonly resendDropped: boolean;
  /** What this browser's cache holds: the site stylesheet's addresses it has fetched. */
  private readonly cached = new Set<string>();
  /** The page the student is looking at: the Referer of the next request. */
  private page: URL | null = null;
  /** The student's first time in the line at the door, and the one they are in now, if any. */
  private firstLine: LineEpisode | null = null;
  private line: LineEpisode | null = null;
  private timesInLine = 0;
  /** The cookies the line set while the student waited: their ticket. */
  private readonly ticketCookies = new Set<string>();
  /** The portal answered something other than the line. */
  private admitted = false;
  private lost: string | null = null;

  constructor(
    localAddress: string,
    recorder: StepRecorder,
    timeoutMs: number,
    options: { resendDropped?: boolean } = {},
  ) {
    this.recorder = recorder;
    this.timeoutMs = timeoutMs;
    this.resendDropped = options.resendDropped ?? false;
    this.dispatcher = new Agent({
      localAddress,
      connect: { timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  }

  /** Loads a page, as following a link, typing an address, or a redirect does. */
  async navigate(
    step: string,
    address: string | URL,
    expect: Expect,
    form?: { method: "POST"; body?: URLSearchParams },
  ) {
    const url = new URL(address, this.page ?? undefined);
    const headers: Record<string, string> = {
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      "sec-fetch-mode": "navigate",
      "sec-fetch-dest": "document",
      "sec-fetch-site": this.fetchSite(url),
      "upgrade-insecure-requests": "1",
    };
    if (form) {
      headers.origin = this.page?.origin ?? "null";
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    const answer = await this.send(
      step,
      url,
      form?.method ?? "GET",
      headers,
      form?.body?.toString(),
      expect,
    );
    if (answer.status === 200) {
      this.page = new URL(answer.url);
      await this.fetchSiteStylesheet(answer.body);
    }
    return answer;
  }

  /**
   * What Chrome does with the site stylesheet's link in a page it shows (decision 203): a prefetch
   * it fetches when idle, or a stylesheet it needs before showing the page, in both cases only if
   * its cache does not hold that address already (the file is cached for good). Counted as a step
   * of its own, so the pages' rows stay what they were; its answer sets the cookie that makes the
   * next pages link to the file instead of carrying it. A failed fetch is recorded, and the
   * student goes on, as the page does without the file (it had the CSS inline, or shows without).
   */
  private async fetchSiteStylesheet(html: string) {
    for (const [, rel, href] of html.matchAll(SITE_STYLESHEET_LINK)) {
      const url = new URL(href!, this.page!);
      if (this.cached.has(url.href)) continue;
      const prefetch = rel === "prefetch";
      const headers: Record<string, string> = prefetch
        ? { accept: "*/*", "sec-fetch-dest": "empty", "sec-purpose": "prefetch" }
        : { accept: "text/css,*/*;q=0.1", "sec-fetch-dest": "style" };
      headers["sec-fetch-mode"] = "no-cors";
      headers["sec-fetch-site"] = this.fetchSite(url);
      try {
        await this.send(SITE_STYLESHEET_STEP, url, "GET", headers, undefined, {
          status: 200,
          check: (css) => (css.includes("{") ? null : "no CSS in the answer"),
        });
        this.cached.add(url.href);
      } catch (error) {
        if (!(error instanceof StepFailed)) throw error;
      }
    }
  }

  /**
   * A page script's call to the API (fetch with the session cookie), from the page shown.
   * `accept` looks at the parsed answer and says what is wrong with it, if anything.
   */
  async api<T>(
    step: string,
    path: string,
    expect: Expect & { accept?: (answer: T) => string | null },
    json?: unknown,
  ): Promise<T> {
    const url = new URL(path, this.page!);
    const headers: Record<string, string> = {
      accept: "application/json",
      "sec-fetch-mode": "cors",
      "sec-fetch-dest": "empty",
      "sec-fetch-site": this.fetchSite(url),
    };
    if (json !== undefined) {
      headers.origin = this.page!.origin;
      headers["content-type"] = "application/json";
    }
    let parsed: T | undefined;
    const check = (body: string) => {
      try {
        parsed = JSON.parse(body) as T;
      } catch {
        return "answer is not JSON";
      }
      try {
        return expect.accept?.(parsed) ?? null;
      } catch {
        return "answer is not shaped as expected";
      }
    };
    const method = json === undefined ? "GET" : "POST";
    await this.send(
      step,
      url,
      method,
      headers,
      json === undefined ? undefined : JSON.stringify(json),
      { ...expect, check },
    );
    return parsed!;
  }

  async close() {
    await this.dispatcher.destroy();
  }

  /** What the student's visit was like at the door, for the report's row of them. */
  lineRecord(): Pick<StudentRecord, "line" | "timesInLine" | "admitted" | "lost"> {
    return {
      line: this.firstLine,
      timesInLine: this.timesInLine,
      admitted: this.admitted,
      lost: this.lost,
    };
  }

  private async send(
    step: string,
    address: URL,
    firstMethod: string,
    extra: Record<string, string>,
    firstBody: string | undefined,
    expect: Expect,
  ): Promise<Answer> {
    let url = address;
    let method = firstMethod;
    let body = firstBody;
    const headers: Record<string, string> = {
      "user-agent": USER_AGENT,
      "accept-language": "en-NG,en;q=0.9",
      "accept-encoding": "gzip, deflate, br",
      ...extra,
    };
    if (this.page) headers.referer = this.page.href;
    let started = performance.now();
    let resent = false;
    for (let busyAnswers = 0; ; busyAnswers += 1) {
      // The portal only serves its public host name; the socket goes to the loopback address.
      headers.host = url.host;
      // Read for every request: an answer in between may have set one (the line's ticket).
      const cookie = this.cookieHeader(url);
      if (cookie) headers.cookie = cookie;
      else delete headers.cookie;
      let answer: Received;
      try {
        answer = await this.sendOnce(url, method, headers, body);
      } catch (error) {
        const failure = describeFailure(error);
        if (this.resendDropped && !resent && DROPPED.has(failure)) {
          resent = true;
          this.recorder.recordRetried(step, `${failure}, sent again`);
          busyAnswers -= 1;
          continue;
        }
        const elapsed = performance.now() - started;
        if (expect.retryable) this.recorder.recordRetried(step, failure, elapsed);
        else this.recorder.record(step, elapsed, failure);
        if (this.line) this.leaveLine();
        throw new StepFailed(step, failure);
      }
      // The line at the door: the student waits as long as it takes, as a browser left open does,
      // and the step's time starts again with the request that is let in.
      if (this.isTheLine(answer)) {
        const next = this.waitInLine(step, answer);
        if ("problem" in next) {
          if (this.line) this.leaveLine();
          this.recorder.record(step, performance.now() - started, next.problem);
          throw new StepFailed(step, next.problem);
        }
        await sleep(next.seconds * 1000);
        if (next.to !== null) {
          url = next.to;
          // A refresh is a page load: a refused form is not posted again.
          if (method !== "GET") {
            method = "GET";
            body = undefined;
            delete headers.origin;
            delete headers["content-type"];
          }
        }
        busyAnswers -= 1;
        started = performance.now();
        continue;
      }
      // A busy portal says when to come back: the page reloads itself then, and a student resends
      // a form or presses Retry. The wait is part of the step's time.
      if (
        answer.status === 503 &&
        answer.retryAfterSeconds !== null &&
        busyAnswers < MAX_BUSY_ANSWERS
      ) {
        this.recorder.recordBusy(step);
        await sleep(answer.retryAfterSeconds * 1000);
        continue;
      }
      const elapsed = performance.now() - started;
      const problem = this.problemWith(answer, expect);
      if (!problem) this.passedTheDoor();
      else if (this.line) this.leaveLine();
      if (problem && expect.retryable) this.recorder.recordRetried(step, problem, elapsed);
      else this.recorder.record(step, elapsed, problem ?? undefined);
      if (problem) throw new StepFailed(step, problem);
      return answer;
    }
  }

  /**
   * A 503 from the line, not the per-process "busy": a page with the waiting line in it, or, to
   * an API call, a refusal that hands out the line's ticket (or comes while the student holds one).
   */
  private isTheLine(answer: Received) {
    if (answer.status !== 503) return false;
    if (isWaitingPage(answer.body)) return true;
    return (
      answer.retryAfterSeconds !== null &&
      /json/i.test(answer.contentType ?? "") &&
      (answer.cookiesSet.some((set) => set.value !== null) ||
        [...this.ticketCookies].some((name) => this.heldCookie(answer.url, name) !== null))
    );
  }

  /**
   * Notes one answer of the line: when it came, the place and estimate it showed. Answers how long
   * to wait and where to go next (null: the same request again), or how the line lost the student:
   * their place went back by more than the line's own lag can explain, or they were handed a new
   * ticket behind the one they held (a ticket refused as forged or expired, a cookie lost).
   */
  private waitInLine(
    step: string,
    answer: Received,
  ): { seconds: number; to: URL | null } | { problem: string } {
    const now = Date.now();
    const page = isWaitingPage(answer.body) ? readWaitingPage(answer.body) : null;
    if (page && "problem" in page) return page;
    if (!page && answer.retryAfterSeconds === null)
      return { problem: "refused for the line without a Retry-After" };
    const place = page?.place ?? null;
    const estimate = page?.waitSeconds ?? null;
    let line = this.line;
    if (!line) {
      this.timesInLine += 1;
      this.recorder.enteredLine();
      line = this.line = {
        firstPageAt: now,
        firstPageEstimateSeconds: estimate,
        firstEstimate: null,
        firstPlace: place,
        maxPlace: place,
        lastPlace: place,
        pages: 0,
        admittedAt: null,
      };
      this.firstLine ??= line;
    } else {
      const before = line.lastPlace;
      const newTicket = answer.cookiesSet.some(
        (set) => this.ticketCookies.has(set.name) && set.value !== set.before,
      );
      // The portal never shows a ticket a higher place than before (the ticket carries what it was
      // last shown, decision 193): a place that rises is a student sent back, however few places.
      if (place !== null && before !== null && place > before) {
        this.lost = `lost by the line: place ${before}, then ${place}${newTicket ? " on a new ticket" : ""}`;
        return { problem: this.lost };
      }
      line.lastPlace = place ?? line.lastPlace;
      if (place !== null) line.maxPlace = Math.max(line.maxPlace ?? 0, place);
    }
    for (const set of answer.cookiesSet) if (set.value !== null) this.ticketCookies.add(set.name);
    line.pages += 1;
    if (estimate !== null && !line.firstEstimate)
      line.firstEstimate = { seconds: estimate, shownAt: now };
    this.recorder.recordWaiting(step);
    return page
      ? {
          seconds: page.refreshSeconds,
          to: page.refreshTo === "" ? null : new URL(page.refreshTo, answer.url),
        }
      : { seconds: answer.retryAfterSeconds!, to: null };
  }

  /** The answer asked for: a student who was in line has been let in. */
  private passedTheDoor() {
    this.admitted = true;
    if (!this.line) return;
    this.line.admittedAt = Date.now();
    this.leaveLine();
  }

  private leaveLine() {
    this.line = null;
    this.recorder.leftLine();
  }

  private async sendOnce(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<Received> {
    const response = await request(connectAddress(url), {
      method: method as Dispatcher.HttpMethod,
      headers,
      body,
      dispatcher: this.dispatcher,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const cookiesSet = this.keepCookies(url, response.headers["set-cookie"]);
    const text = decodedText(
      Buffer.from(await response.body.arrayBuffer()),
      single(response.headers["content-encoding"]),
    );
    const retryAfter = Number(single(response.headers["retry-after"]) ?? Number.NaN);
    return {
      status: response.statusCode,
      location: single(response.headers.location),
      body: text,
      url: url.href,
      retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null,
      contentType: single(response.headers["content-type"]),
      cookiesSet,
    };
  }

  private problemWith(
    answer: { status: number; location: string | null; body: string },
    expect: Expect,
  ): string | null {
    if (answer.status !== expect.status) return `HTTP ${answer.status}`;
    if (expect.location !== undefined && !answer.location?.startsWith(expect.location)) {
      return `redirected to ${answer.location ?? "nowhere"}`;
    }
    if (expect.marker !== undefined && !answer.body.includes(expect.marker))
      return `no "${expect.marker}" in the answer`;
    if (answer.body.includes(PART_NOT_LOADED)) return "page says part of it could not be loaded";
    return expect.check?.(answer.body) ?? null;
  }

  private fetchSite(url: URL) {
    if (!this.page) return "none";
    if (this.page.origin === url.origin) return "same-origin";
    return this.page.hostname === url.hostname ? "same-site" : "cross-site";
  }

  // Cookies are per host name, whatever the port, as browsers keep them.
  private cookieHeader(url: URL) {
    const jar = this.cookies.get(url.hostname);
    return jar && jar.size > 0
      ? [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
      : "";
  }

  private heldCookie(address: string, name: string) {
    return this.cookies.get(new URL(address).hostname)?.get(name) ?? null;
  }

  /** Keeps what `header` sets, as a browser does, and answers what it set. */
  private keepCookies(url: URL, header: string | string[] | undefined): CookieSet[] {
    if (header === undefined) return [];
    let jar = this.cookies.get(url.hostname);
    if (!jar) this.cookies.set(url.hostname, (jar = new Map()));
    const set: CookieSet[] = [];
    for (const line of Array.isArray(header) ? header : [header]) {
      const [pair = "", ...attributes] = line.split(";");
      const equals = pair.indexOf("=");
      if (equals <= 0) continue;
      const name = pair.slice(0, equals).trim();
      const value = pair.slice(equals + 1).trim();
      const expired = attributes.some((attribute) =>
        /^\s*max-age\s*=\s*(0|-\d+)\s*$/i.test(attribute),
      );
      const before = jar.get(name) ?? null;
      if (expired || value === "") {
        jar.delete(name);
        set.push({ name, value: null, before });
      } else {
        jar.set(name, value);
        set.push({ name, value, before });
      }
    }
    return set;
  }
}

/**
 * Where the socket goes: "localhost" as 127.0.0.1, since a socket bound to an IPv4 loopback
 * address cannot reach ::1, which "localhost" may resolve to first.
 */
function connectAddress(url: URL) {
  const target = new URL(url);
  if (target.hostname === "localhost") target.hostname = "127.0.0.1";
  return target;
}

const single = (value: string | string[] | undefined) =>
  Array.isArray(value) ? (value[0] ?? null) : (value ?? null);

function describeFailure(error: unknown): string {
  const named = error as { name?: string; code?: string; message?: string };
  if (named?.name === "TimeoutError" || /timeout/i.test(named?.code ?? "")) return "timed out";
  return named?.code ?? named?.message ?? String(error);
}
