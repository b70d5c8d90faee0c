import type { Context, MiddlewareHandler } from "hono";
import { generateCookie, getCookie, setCookie } from "hono/cookie";
import { readSessionToken, readStaffToken, safeNextPath } from "../../common/session/cookie.ts";
import { SITE_CSS_PATH } from "../../common/http/site-stylesheet.ts";
import { apiErrorBody } from "../refusal.ts";
import type { Gate } from "./gate.ts";
import { PASS_LIFETIME_SECONDS, TICKET_LIFETIME_SECONDS, type TicketSigner } from "./tickets.ts";
import {
  expectedWaitSeconds,
  refreshSeconds,
  waitingMessage,
  waitingPage,
  type PlaceInLine,
} from "./waiting-page.ts";

export const LINE_COOKIE = "portal_line";
export const PASS_COOKIE = "portal_pass";
const cookieName = (name: string, secure: boolean) => (secure ? `__Host-${name}` : name);

/** The student sign-ins: a session cookie does not carry anyone past the line to these. */
const SIGN_IN_POSTS = new Set(["/login", "/api/student/uniben/login"]);

/**
 * What never waits in the students' line (decision 193): the files a page that was let in needs
 * to show itself (the site stylesheet among them, decision 203), Paystack's and Remita's news of money, the SMS provider's STOP replies, staff
 * pages and their sign-in, the checks of a printed slip or invoice, and the development hooks
 * (outbox, sandboxes' clocks).
 */
const PROVIDER_CALLBACKS = new Set([
  "/api/paystack/webhook",
  "/api/remita/webhook",
  "/api/sms/opt-out",
  "/api/ussd",
]);

export function walksPastTheLine(method: string, path: string): boolean {
  if (method === "POST" && PROVIDER_CALLBACKS.has(path)) return true;
  return (
    path.startsWith("/_astro/") ||
    path.startsWith("/images/") ||
    path === "/favicon.svg" ||
    path === SITE_CSS_PATH ||
    path === "/staff" ||
    path.startsWith("/staff/") ||
    path.startsWith("/api/staff/") ||
    path.startsWith("/verify/") ||
    path.startsWith("/api/dev/")
  );
}

/**
 * The line at the door. A student already signed in (a session cookie; checked by the API, not
 * here) goes on, except to sign in again. Anyone else needs a pass: taken at once while no line
 * stands and the portal has room, or by waiting their turn with a ticket. The store failing
 * leaves the door open: the per-process limit behind it (runtime/serve/admission.ts) still
 * protects the portal, and a student is never shut out by the line's own fault.
 */
export function waitAtTheDoor(options: {
  gate: Gate;
  signer: TicketSigner;
  secure: boolean;
  now?: () => number;
  onStoreError?: (error: unknown) => void;
}): MiddlewareHandler {
  const { gate, signer, secure } = options;
  const now = options.now ?? Date.now;
  const lineCookie = cookieName(LINE_COOKIE, secure);
  const passCookie = cookieName(PASS_COOKIE, secure);
  const cookieOptions = { path: "/", httpOnly: true, sameSite: "Lax", secure } as const;

  /**
   * Serves the request, timing it for the gate. Cookies go onto the answer once it is made: the
   * upstream's answer replaces whatever the context held before it.
   */
  const timed = async (c: Context, next: () => Promise<void>, cookies: string[] = []) => {
    const started = now();
    await next();
    gate.observeAnswer(now() - started);
    for (const cookie of cookies) c.res.headers.append("set-cookie", cookie);
  };

  return async (c, next) => {
    const path = c.req.path;
    const method = c.req.method;
    if (walksPastTheLine(method, path)) return next();
    const cookies = c.req.header("cookie");
    const signingIn = method === "POST" && SIGN_IN_POSTS.has(path);
    if (!signingIn && (readSessionToken(cookies, secure) || readStaffToken(cookies, secure)))
      return timed(c, next);
    const nowSeconds = now() / 1000;
    if (await signer.readPass(getCookie(c, passCookie), nowSeconds)) return timed(c, next);

    /** In with a pass, and without the ticket it was exchanged for (if any). */
    const admit = async (ticket: number, hadTicket: boolean) => {
      const pass = generateCookie(passCookie, await signer.pass(ticket, nowSeconds), {
        ...cookieOptions,
        maxAge: PASS_LIFETIME_SECONDS,
      });
      const spent = generateCookie(lineCookie, "", { ...cookieOptions, maxAge: 0 });
      return timed(c, next, hadTicket ? [pass, spent] : [pass]);
    };
    try {
      const numbers = await gate.current();
      if (!numbers) return timed(c, next);
      const presented = await signer.readTicket(getCookie(c, lineCookie), nowSeconds);
      if (gate.takeFreePlace()) return admit(0, presented !== null);
      // Their turn has come (by this proxy's reading, or by what the proxy that last showed them
      // their place had read): the ticket is exchanged for a pass, once. A copy of a ticket that was exchanged
      // already joins at the back, as anyone arriving now does.
      const through = Math.max(numbers.admittedThrough, presented?.seenThrough ?? 0);
      if (presented && presented.number <= through && (await gate.exchange(presented.number)))
        return admit(presented.number, true);
      let ticket = presented && presented.number > through ? presented : null;
      if (!ticket) {
        ticket = {
          number: await gate.join(),
          issuedAt: Math.floor(nowSeconds),
          seenThrough: numbers.admittedThrough,
        };
      }
      if (ticket !== presented || through > presented.seenThrough) {
        ticket = { ...ticket, seenThrough: through };
        setCookie(c, lineCookie, await signer.ticket(ticket), {
          ...cookieOptions,
          maxAge: TICKET_LIFETIME_SECONDS,
        });
      }
      gate.observeWaiting(Math.max(0, Math.round(nowSeconds - ticket.issuedAt)));
      const place = ticket.number - through;
      const turnIn = gate.turnInSeconds(place);
      const refresh = refreshSeconds(turnIn);
      return await answerInLine(c, {
        place,
        waitSeconds: turnIn === null ? null : expectedWaitSeconds(turnIn, refresh),
        refreshSeconds: refresh,
        refreshTo: await whereToCheckAgain(c),
      });
    } catch (error) {
      options.onStoreError?.(error);
      return timed(c, next);
    }
  };
}

/**
 * A page asked for is asked for again. A form is not sent again (a refresh cannot post it, and
 * its password should not wait in a page): the student lands on the sign-in page, with where
 * they were going kept, or on the form's own page.
 */
async function whereToCheckAgain(c: Context): Promise<string> {
  const url = new URL(c.req.url);
  if (c.req.method === "GET" || c.req.method === "HEAD") return url.pathname + url.search;
  if (url.pathname === "/login") {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const next = safeNextPath(typeof form.next === "string" ? form.next : null);
    return next === "/" ? "/login" : `/login?${new URLSearchParams({ next })}`;
  }
  return url.pathname.startsWith("/api/") ? "/login" : url.pathname;
}

function answerInLine(c: Context, line: PlaceInLine) {
  const headers = {
    "retry-after": String(line.refreshSeconds),
    "cache-control": "no-store",
  };
  if (c.req.path.startsWith("/api/")) {
    // `line` beside the error: a busy process (runtime/serve/admission.ts) also answers 503 with
    // Retry-After, and the sign-in form gives up on that after a while, but keeps trying for as
    // long as the answer is a place in line, which always moves on.
    return c.json(
      {
        ...apiErrorBody(waitingMessage(line)),
        line: { place: line.place, waitSeconds: line.waitSeconds },
      },
      503,
      headers,
    );
  }
  return c.html(waitingPage(line), 503, {
    ...headers,
    "content-security-policy":
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  });
}
