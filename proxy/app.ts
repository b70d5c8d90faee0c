import { Hono, type Context, type MiddlewareHandler } from "hono";
import { compress } from "hono/compress";
import { deleteCookie, setCookie } from "hono/cookie";
import {
  readSessionToken,
  readStaffToken,
  safeNextPath,
  sessionCookieName,
  staffCookieName,
} from "../common/session/cookie.ts";
import { FLASH_COOKIE, FLASH_MAX_AGE_SECONDS, type Flash } from "../common/session/flash.ts";
import {
  TYPED_PHONE_COOKIE,
  TYPED_PHONE_COOKIE_PATH,
  TYPED_PHONE_MAX_AGE_SECONDS,
  typedPhone,
} from "../common/session/typed-phone.ts";
import { PROXY_SECRET_HEADER } from "../common/http/proxy-secret.ts";
import { REQUEST_ID_HEADER, tellTheHelpDesk } from "../common/http/request-id.ts";
import { scrubText } from "../common/log/scrub.ts";
import { refuseOversizedBodies } from "./body-limits.ts";
import { canonicalOrigin } from "./canonical-origin.ts";
import { clientAddressOf, SOCKET_ADDRESS, type ClientAddressRule } from "./client-address.ts";
import { relay, type Fetch } from "./relay.ts";
import { sameOriginOnly } from "./same-origin.ts";
import { securityHeaders } from "./security-headers.ts";
import { mountStaffSignIn } from "./staff-sign-in.ts";
import { mountHealth } from "./health.ts";
import { requestIds, type RequestIdVariables } from "./request-log.ts";
import { waitAtTheDoor } from "./waiting-line/door.ts";
import type { Gate } from "./waiting-line/gate.ts";
import type { TicketSigner } from "./waiting-line/tickets.ts";

export type ProxyOptions = {
  publicOrigin: string;
  apiUrl: string;
  pagesUrl: string;
  /** Extra origins allowed to post to us (none in production). */
  trustedOrigins?: string[];
  /**
   * How to reach the API and page server; global fetch() by default. The all-in-one start hands
   * over the services' own handlers, whose answers arrive as they were made (still compressed).
   */
  fetch?: Fetch;
  /** Where the client's address is found behind load balancers or a CDN; the socket's by default (decision 122). */
  clientAddress?: ClientAddressRule;
  /**
   * PROXY_SHARED_SECRET, sent with every request to the API and the page server: only with it do
   * they believe the client address we pass on. Without it they see every student as the proxy.
   */
  proxySecret?: string;
  /**
   * Where the proxy's line per request goes (one JSON line, no newline), when LOG_LEVEL is info or
   * lower; no lines without it. On Node, the process's own background writer; elsewhere console.log.
   */
  logRequests?: (line: string) => void;
  /**
   * How answers are compressed: hono's `compress()` (a CompressionStream each) unless the host
   * offers better; on Node, `compressWholeAnswers()` (runtime/start/compress-whole-answers.ts).
   */
  compress?: MiddlewareHandler;
  /**
   * The line at the door for deadline day (decision 193): this proxy's gate on the line every
   * proxy shares, and the key its cookies are signed with. None: no line (every newcomer goes in).
   */
  waitingLine?: { gate: Gate; signer: TicketSigner; onStoreError?: (error: unknown) => void };
};

/** On Node, @hono/node-server hands over the socket; edge runtimes have none. */
type ProxyBindings = {
  Bindings: { incoming?: { socket?: { remoteAddress?: string } } };
} & RequestIdVariables;

type LoginOutcome =
  | { ok: true; token: string; body: { data: { tokens: Record<string, unknown> } } }
  | { ok: false; status: number; body: unknown };

/**
 * The edge proxy: serves the pages, relays /api/* to the college API with the bearer token
 * taken from an HttpOnly cookie, and handles sign-in and sign-out so the token never reaches
 * page JavaScript. Web-standard APIs only, so it runs on Node and on edge runtimes.
 */
export function createProxy(options: ProxyOptions) {
  const fetchUpstream: Fetch = options.fetch ?? ((request) => fetch(request));
  const upstreamDecodes = !options.fetch;
  const secure = options.publicOrigin.startsWith("https:");
  const cookieName = sessionCookieName(secure);
  const app = new Hono<ProxyBindings>();
  const addressRule = options.clientAddress ?? SOCKET_ADDRESS;

  /**
   * Tells the API or page server who the client is, with the secret that shows it is us saying
   * so. Whatever the client sent in these headers is replaced: a header it made up never passes.
   */
  const identifyClient = (c: Context<ProxyBindings>, headers: Headers) => {
    headers.set(
      "x-forwarded-for",
      clientAddressOf(c.req.raw, c.env?.incoming?.socket?.remoteAddress, addressRule),
    );
    headers.set(REQUEST_ID_HEADER, c.var.requestId);
    if (options.proxySecret) headers.set(PROXY_SECRET_HEADER, options.proxySecret);
    else headers.delete(PROXY_SECRET_HEADER);
  };
  const apiHeaders = (c: Context<ProxyBindings>, token: string | null) => (headers: Headers) => {
    headers.delete("cookie");
    headers.delete("authorization");
    if (token) headers.set("authorization", `Bearer ${token}`);
    identifyClient(c, headers);
    headers.set("accept", "application/json");
  };
  const clearSession = (c: Context) => deleteCookie(c, cookieName, { path: "/", secure });
  const keepSession = (c: Context, token: string) =>
    setCookie(c, cookieName, token, { path: "/", httpOnly: true, sameSite: "Lax", secure });
  // A message for the page the redirect leads to: that page shows it once and deletes it.
  const flash = (c: Context, message: Flash) =>
    setCookie(c, FLASH_COOKIE, message, {
      path: "/",
      httpOnly: true,
      sameSite: "Lax",
      secure,
      maxAge: FLASH_MAX_AGE_SECONDS,
    });

  /** `credentials` is the body sent to the API, which validates it (and its content type). */
  async function signIn(
    c: Context<ProxyBindings>,
    credentials: string,
    contentType = "application/json",
  ): Promise<LoginOutcome> {
    const headers = new Headers({ "content-type": contentType, accept: "application/json" });
    identifyClient(c, headers);
    const response = await fetchUpstream(
      new Request(new URL("/student/uniben/login", options.apiUrl), {
        method: "POST",
        headers,
        body: credentials,
      }),
    );
    const body = (await response.json().catch(() => null)) as LoginOutcome["body"];
    const tokens = (body as { data?: { tokens?: { access?: unknown } } } | null)?.data?.tokens;
    if (response.status === 200 && typeof tokens?.access === "string") {
      return {
        ok: true,
        token: tokens.access,
        body: body as Extract<LoginOutcome, { ok: true }>["body"],
      };
    }
    return { ok: false, status: response.status === 200 ? 502 : response.status, body };
  }

  app.use(securityHeaders({ https: secure }));
  // The API marks its staff answers itself; these are the ones the proxy answers on its own (a
  // cross-site or wrong-host refusal, the sign-in route it keeps from pages).
  app.use("/api/staff/*", async (c, next) => {
    await next();
    c.res.headers.set("cache-control", "private, no-store");
  });
  mountHealth(app, {
    fetchUpstream,
    apiUrl: options.apiUrl,
    line: options.waitingLine
      ? async () => {
          await options.waitingLine!.gate.current();
          return options.waitingLine!.gate.describe();
        }
      : undefined,
  });
  // After the probes, which a balancer sends every few seconds: they need no id and no log line.
  app.use(requestIds({ log: options.logRequests }));
  app.use(canonicalOrigin(options.publicOrigin));
  app.use(options.compress ?? compress());
  app.use(sameOriginOnly([options.publicOrigin, ...(options.trustedOrigins ?? [])]));
  app.use(refuseOversizedBodies());
  if (options.waitingLine) app.use(waitAtTheDoor({ ...options.waitingLine, secure }));

  // The sign-in form posts here when JavaScript has not loaded; the island uses the JSON route.
  app.post("/login", async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const next = safeNextPath(typeof form.next === "string" ? form.next : null);
    const credentials = { username: form.username ?? "", password: form.password ?? "" };
    const outcome = await signIn(c, JSON.stringify(credentials));
    if (outcome.ok) {
      keepSession(c, outcome.token);
      flash(c, "signed-in");
      return c.redirect(next, 303);
    }
    const reason =
      outcome.status === 429 ? "limited" : outcome.status === 400 ? "missing" : "wrong";
    const query = new URLSearchParams({ error: reason, ...(next !== "/" ? { next } : {}) });
    // The form comes back with the phone number as typed, so only the password is typed again.
    const phone = typedPhone(form.username);
    if (phone) {
      setCookie(c, TYPED_PHONE_COOKIE, phone, {
        path: TYPED_PHONE_COOKIE_PATH,
        httpOnly: true,
        sameSite: "Lax",
        secure,
        maxAge: TYPED_PHONE_MAX_AGE_SECONDS,
      });
    }
    return c.redirect(`/login?${query}`, 303);
  });

  app.post("/api/student/uniben/login", async (c) => {
    // Passed on as sent, not parsed and written again: JSON nested thousands deep parses, but
    // writing it again overflows the stack. The API parses and validates it.
    const outcome = await signIn(c, await c.req.text(), c.req.header("content-type") ?? "");
    if (!outcome.ok) return c.json(outcome.body, outcome.status as 400);
    keepSession(c, outcome.token);
    flash(c, "signed-in");
    const { access: _token, ...tokens } = outcome.body.data.tokens;
    return c.json({ ...outcome.body, data: { ...outcome.body.data, tokens } });
  });

  app.post("/logout", async (c) => {
    const token = readSessionToken(c.req.header("cookie"), secure);
    if (token) {
      const headers = new Headers({ authorization: `Bearer ${token}`, accept: "application/json" });
      identifyClient(c, headers);
      await fetchUpstream(
        new Request(new URL("/student/logout", options.apiUrl), { method: "POST", headers }),
      ).catch(() => undefined);
    }
    clearSession(c);
    return c.redirect("/login?signed_out=1", 303);
  });

  mountStaffSignIn(app, { fetchUpstream, apiUrl: options.apiUrl, secure, identifyClient });

  app.all("/api/*", async (c) => {
    const url = new URL(c.req.url);
    const cookies = c.req.header("cookie");
    // Staff routes take the staff cookie; a student's cookie reaches them only to be refused (403).
    const staffToken = url.pathname.startsWith("/api/staff/")
      ? readStaffToken(cookies, secure)
      : null;
    const token = staffToken ?? readSessionToken(cookies, secure);
    const target = upstreamUrl(options.apiUrl, url.pathname.slice("/api".length), url.search);
    const response = await relay(
      fetchUpstream,
      c.req.raw,
      target,
      apiHeaders(c, token),
      upstreamDecodes,
    );
    const spentCookie = staffToken ? staffCookieName(secure) : cookieName;
    if (response.status === 401)
      response.headers.append("set-cookie", expiredCookie(spentCookie, secure));
    return response;
  });

  app.all("*", (c) => {
    const url = new URL(c.req.url);
    const target = upstreamUrl(options.pagesUrl, url.pathname, url.search);
    return relay(
      fetchUpstream,
      c.req.raw,
      target,
      (headers) => {
        identifyClient(c, headers);
        headers.set("x-forwarded-proto", secure ? "https" : "http");
      },
      upstreamDecodes,
    );
  });

  app.onError((error, c) => {
    // Undefined only if the failure came before the id was made.
    const requestId = c.get("requestId") ?? crypto.randomUUID();
    console.error(
      JSON.stringify({
        level: "error",
        time: new Date().toISOString(),
        name: "proxy",
        requestId,
        message: "upstream failed",
        error: scrubText(error instanceof Error ? (error.stack ?? String(error)) : String(error)),
      }),
    );
    return c.text(
      `The portal is not answering right now. Please try again in a minute. ${tellTheHelpDesk(requestId)}`,
      502,
    );
  });

  return app;
}

/**
 * The upstream address for a path on `origin`. The path is set, not resolved: resolving
 * "//evil.example/x" against the origin would leave our hosts (with the bearer token).
 */
function upstreamUrl(origin: string, pathname: string, search: string) {
  const url = new URL(origin);
  url.pathname = pathname;
  url.search = search;
  return url.toString();
}

function expiredCookie(name: string, secure: boolean) {
  return `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}
