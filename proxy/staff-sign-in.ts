import type { Context, Env, Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { readStaffToken, safeStaffNextPath, staffCookieName } from "../common/session/cookie.ts";
import type { Fetch } from "./relay.ts";

type StaffSignInOptions<E extends Env> = {
  fetchUpstream: Fetch;
  apiUrl: string;
  secure: boolean;
  /** Sets who the client is, and the proxy's secret, on a request to the API (decision 122). */
  identifyClient: (c: Context<E>, headers: Headers) => void;
};

// Where each sign-in stage continues (docs/decisions/080).
const NEXT_STEP: Record<string, string> = { code: "/staff/login/code", enrol: "/staff/totp" };

/**
 * Staff sign-in and sign-out, as plain form posts: the token goes into the staff cookie and
 * never reaches the page. The code and enrolment steps that follow are ordinary staff pages.
 */
export function mountStaffSignIn<E extends Env>(app: Hono<E>, options: StaffSignInOptions<E>) {
  const cookieName = staffCookieName(options.secure);
  const api = (c: Context<E>, path: string, init: { token?: string; json?: unknown }) => {
    const headers = new Headers({ accept: "application/json", "content-type": "application/json" });
    if (init.token) headers.set("authorization", `Bearer ${init.token}`);
    options.identifyClient(c, headers);
    return options.fetchUpstream(
      new Request(new URL(path, options.apiUrl), {
        method: "POST",
        headers,
        body: JSON.stringify(init.json ?? {}),
      }),
    );
  };

  app.post("/staff/login", async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const next = safeStaffNextPath(typeof form.next === "string" ? form.next : null);
    const response = await api(c, "/staff/login", {
      json: { email: form.email ?? "", password: form.password ?? "" },
    });
    const body = (await response.json().catch(() => null)) as {
      data?: { tokens?: { access?: unknown }; stage?: string };
    } | null;
    const token = body?.data?.tokens?.access;
    if (response.status !== 200 || typeof token !== "string") {
      const reason =
        response.status === 429 ? "limited" : response.status === 400 ? "missing" : "wrong";
      // The page says how long this network waits for this e-mail, not a fixed quarter of an hour.
      const retryAfter = Number(response.headers.get("retry-after"));
      const wait: Record<string, string> =
        reason === "limited" && Number.isInteger(retryAfter) && retryAfter > 0
          ? { wait: String(retryAfter) }
          : {};
      return c.redirect(
        `/staff/login?${new URLSearchParams({ error: reason, ...wait, ...(next !== "/staff" ? { next } : {}) })}`,
        303,
      );
    }
    setCookie(c, cookieName, token, {
      path: "/",
      httpOnly: true,
      sameSite: "Lax",
      secure: options.secure,
    });
    const step = NEXT_STEP[body?.data?.stage ?? ""];
    return c.redirect(step ? `${step}?${new URLSearchParams({ next })}` : next, 303);
  });

  app.post("/staff/logout", async (c) => {
    const token = readStaffToken(c.req.header("cookie"), options.secure);
    if (token) await api(c, "/staff/logout", { token }).catch(() => undefined);
    deleteCookie(c, cookieName, { path: "/", secure: options.secure });
    return c.redirect("/staff/login?signed_out=1", 303);
  });

  // The API's sign-in answer holds the token: it must never reach page JavaScript.
  app.all("/api/staff/login", (c) =>
    c.json(
      {
        status: "error",
        message: "Sign in on the staff sign-in page.",
        error: { message: "Sign in on the staff sign-in page." },
      },
      404,
    ),
  );
}
