import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Logger } from "../../server/http/logger.ts";
import { SITE_CSS_PATH } from "../../common/http/site-stylesheet.ts";
import { apiErrorBody } from "../../proxy/refusal.ts";

/**
 * How much one serving process takes on at once. Past `inFlight`, requests wait in arrival order;
 * past `waiting`, or after `maxWaitMs` in line, they are answered at once with 503 and a time to
 * come back, instead of piling up inside the process until every one of them is slow (decision 112).
 */
export type AdmissionLimits = { inFlight: number; waiting: number; maxWaitMs: number };

/**
 * Sent back to try again after a few seconds, spread so that a crowd turned away together does
 * not return together.
 */
const RETRY_AFTER_SECONDS = { least: 5, spread: 6 };

/** How often a process under overload says how many it turned away, instead of a line per refusal. */
const REPORT_EVERY_MS = 10_000;

/**
 * What passes the line: the load balancer's probes, Paystack's webhooks and Remita's
 * notifications (they bring news of money, cost little, and a refused one waits for a retry), the static files a page that was
 * let in needs to show itself (a page without its styles is worse than a busy page; the site
 * stylesheet too, decision 203), and the
 * sign-in page, which reads nothing and costs less than a busy page's round trip: a newcomer waits
 * once, at the sign-in itself, not also for the form (and a student just signed out is not sent to
 * the back of the line to see that they are).
 */
export function passesTheLine(method: string | undefined, url: string | undefined): boolean {
  const path = url ?? "/";
  if (method === "POST") return path === "/api/paystack/webhook" || path === "/api/remita/webhook";
  if (method !== "GET" && method !== "HEAD") return false;
  return (
    path === "/healthz" ||
    path === "/readyz" ||
    path.startsWith("/_astro/") ||
    path === "/favicon.svg" ||
    path === SITE_CSS_PATH ||
    path.startsWith(`${SITE_CSS_PATH}?`) ||
    path.startsWith("/images/") ||
    path === "/login" ||
    path.startsWith("/login?")
  );
}

type Waiting = { admit: () => void; turnAway: () => void; settled: boolean };

/**
 * Requests waiting for a turn, first come first served. An entry that left (its student gave up,
 * or it waited too long) stays in the array, settled, until it reaches an end; `head` saves
 * shifting the array at every admission.
 */
class Line {
  private entries: Waiting[] = [];
  private head = 0;

  push(entry: Waiting) {
    this.entries.push(entry);
  }

  /** The first entry still waiting, taken out of the line. */
  takeFirst(): Waiting | undefined {
    while (this.head < this.entries.length) {
      const entry = this.entries[this.head]!;
      this.entries[this.head] = undefined as never;
      this.head += 1;
      if (!entry.settled) return this.compactedWith(entry);
    }
    return this.compactedWith(undefined);
  }

  /** The last entry still waiting, taken out of the line. */
  takeLast(): Waiting | undefined {
    while (this.entries.length > this.head) {
      const entry = this.entries.pop()!;
      if (!entry.settled) return this.compactedWith(entry);
    }
    return this.compactedWith(undefined);
  }

  private compactedWith(entry: Waiting | undefined) {
    if (this.head === this.entries.length) {
      this.entries = [];
      this.head = 0;
    }
    return entry;
  }
}

/**
 * Wraps the listener students reach with admission control (decision 112). A request is in
 * flight from its arrival until its answer is sent or its connection closes, so a page whose body
 * is still streaming holds its place.
 *
 * `midVisit` tells a request from a student already signed in (by the session cookie it carries).
 * Those go first: a student half-way through paying or registering finishes before a newcomer
 * starts, and when the line is full a newcomer's place is given to them. The cookie is not checked
 * here; a made-up one buys a place in the line, never an answer the API would not give.
 */
export function admitInTurn(
  listener: RequestListener,
  limits: AdmissionLimits,
  logger: Logger,
  midVisit: (request: IncomingMessage) => boolean = () => false,
): RequestListener {
  let inFlight = 0;
  const signedIn = new Line();
  const arriving = new Line();
  let waitingNow = 0;
  let turnedAway = 0;

  const report = setInterval(() => {
    if (turnedAway === 0) return;
    logger.warn("busy: requests turned away with 503", {
      turnedAway,
      perSeconds: REPORT_EVERY_MS / 1000,
      limits,
    });
    turnedAway = 0;
  }, REPORT_EVERY_MS);
  report.unref();

  const serve = (request: IncomingMessage, response: ServerResponse) => {
    inFlight += 1;
    response.once("close", release);
    void listener(request, response);
  };

  // Settles an entry, once: it leaves the count of those waiting.
  const settle = (entry: Waiting) => {
    if (entry.settled) return false;
    entry.settled = true;
    waitingNow -= 1;
    return true;
  };

  function release() {
    inFlight -= 1;
    while (inFlight < limits.inFlight) {
      const next = signedIn.takeFirst() ?? arriving.takeFirst();
      if (!next) return;
      settle(next);
      next.admit();
    }
  }

  const turnAway = (request: IncomingMessage, response: ServerResponse) => {
    turnedAway += 1;
    answerBusy(request, response);
  };

  return (request, response) => {
    if (passesTheLine(request.method, request.url)) return void listener(request, response);
    if (inFlight < limits.inFlight && waitingNow === 0) return serve(request, response);
    const first = midVisit(request);
    if (waitingNow >= limits.waiting) {
      const displaced = first ? arriving.takeLast() : undefined;
      if (!displaced) return turnAway(request, response);
      settle(displaced);
      displaced.turnAway();
    }

    const entry: Waiting = {
      settled: false,
      admit: () => {
        clearTimeout(timer);
        serve(request, response);
      },
      turnAway: () => {
        clearTimeout(timer);
        turnAway(request, response);
      },
    };
    const timer = setTimeout(() => {
      if (settle(entry)) entry.turnAway();
    }, limits.maxWaitMs);
    // A student who gave up (closed the tab, lost signal) leaves the line.
    response.once("close", () => {
      if (settle(entry)) clearTimeout(timer);
    });
    (first ? signedIn : arriving).push(entry);
    waitingNow += 1;
  };
}

const BUSY_MESSAGE =
  "Many students are using the portal right now, so your request was not handled and nothing was changed.";

/**
 * 503 with Retry-After. A page a browser asked for says so and tries again by itself after that
 * time; a form post says to send it again (a refresh would not post it); the API answers in its
 * own error shape, which the page scripts show with a Retry.
 */
export function answerBusy(request: IncomingMessage, response: ServerResponse) {
  const seconds =
    RETRY_AFTER_SECONDS.least + Math.floor(Math.random() * RETRY_AFTER_SECONDS.spread);
  const headers = {
    "retry-after": String(seconds),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  };
  if ((request.url ?? "/").startsWith("/api/")) {
    const body = JSON.stringify(
      apiErrorBody(`${BUSY_MESSAGE} Please try again in ${seconds} seconds.`),
    );
    response
      .writeHead(503, { ...headers, "content-type": "application/json; charset=utf-8" })
      .end(body);
    return;
  }
  const retriesItself = request.method === "GET" || request.method === "HEAD";
  response
    .writeHead(503, {
      ...headers,
      "content-type": "text/html; charset=utf-8",
      "content-security-policy":
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    })
    .end(busyPage(seconds, retriesItself));
}

function busyPage(seconds: number, retriesItself: boolean) {
  const next = retriesItself
    ? `<p>This page will try again by itself in ${seconds} seconds. You can also <a href="">reload it</a> then.</p>`
    : `<p>Wait ${seconds} seconds, then go back and send the form again.</p>`;
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${retriesItself ? `<meta http-equiv="refresh" content="${seconds}">` : ""}
<title>The portal is busy</title>
<main style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem">
<h1>The portal is busy</h1>
<p>${BUSY_MESSAGE}</p>
${next}
</main>
</html>
`;
}
