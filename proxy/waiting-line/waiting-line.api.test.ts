import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Hono } from "hono";
import { sql } from "drizzle-orm";
import {
  createApiHarness,
  TEST_PROXY_SECRET,
  type ApiHarness,
} from "../../server/testing/api-harness.test-kit.ts";
import { databaseLineStore, holdTheDoor } from "../../server/waiting-line/line-store.ts";
import { proxyBeforeApi } from "../recording-proxy.test-kit.ts";
import { createGate, type GateSettings } from "./gate.ts";
import type { WaitingLineStore } from "./line-store.ts";
import { ticketSigner } from "./tickets.ts";

// Two proxies, as two serving processes or two instances, each with its own gate on one line kept
// in the real database, in front of the real API; a stand-in page server says what reached it.
const ORIGIN = "http://localhost:4321";
let api: ApiHarness;
let clock = 0;
const pages = new Hono().all("*", (c) => c.html(`<p>page ${c.req.path}</p>`));

/** Each proxy lets exactly `perSecond` in, whatever it measures: the tests move the clock. */
async function proxyInstance(perSecond: number, store?: WaitingLineStore) {
  const fixed: GateSettings = {
    startPerSecond: perSecond,
    minPerSecond: perSecond,
    maxPerSecond: perSecond,
  };
  const gate = createGate({
    store: store ?? databaseLineStore(api.db),
    settings: fixed,
    now: () => clock,
  });
  const app = proxyBeforeApi(() => api, pages, {
    publicOrigin: ORIGIN,
    proxySecret: TEST_PROXY_SECRET,
    waitingLine: { gate, signer: await ticketSigner(TEST_PROXY_SECRET) },
  });
  return { app, gate };
}
type Instance = Awaited<ReturnType<typeof proxyInstance>>;

/** A browser: keeps its cookies as a browser does, whichever proxy answers. */
function browser() {
  const jar = new Map<string, string>();
  const send = async (through: Instance, path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size > 0)
      headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    if (init.method && init.method !== "GET") headers.set("origin", ORIGIN);
    const response = await through.app.request(`${ORIGIN}${path}`, { ...init, headers });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const [name, value] = [
        pair!.slice(0, pair!.indexOf("=")),
        pair!.slice(pair!.indexOf("=") + 1),
      ];
      if (/Max-Age=0/.test(cookie) || value === "") jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  };
  return { jar, send };
}

/** The place and estimate a waiting page shows; null for any other answer. */
async function placeIn(response: Response) {
  if (response.status !== 503) return null;
  const text = await response.text();
  const match = /id="waiting-line" data-place="(\d+)" data-wait-seconds="(\d*)"/.exec(text);
  return match
    ? { place: Number(match[1]), waitSeconds: match[2] ? Number(match[2]) : null }
    : null;
}

async function resetLine() {
  await api.db.execute(sql`truncate waiting_line_admissions`);
  await api.db.execute(
    sql`update waiting_line set held_since = null, admitted_through = (select case when is_called then last_value else 0 end from waiting_line_tickets)`,
  );
}

beforeAll(async () => {
  api = await createApiHarness();
  await api.createStudent({ phone: "08035551000", password: "line-pass-1" });
});
afterAll(() => api.close());
beforeEach(async () => {
  clock = 1_000_000;
  await resetLine();
});

describe("the line at the door", () => {
  it("lets newcomers straight in while no line stands and the portal has room", async () => {
    const proxy = await proxyInstance(2);
    const student = browser();
    const answer = await student.send(proxy, "/login");
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain("page /login");
    expect(student.jar.has("portal_pass")).toBe(true);
    expect(student.jar.has("portal_line")).toBe(false);
    // The pass carries them on without asking the line again.
    expect((await student.send(proxy, "/forgot-password")).status).toBe(200);
  });

  it("shows a small waiting page that refreshes itself, with the place and a time to come back", async () => {
    const proxy = await proxyInstance(1);
    await holdTheDoor(api.db, true);
    clock += 1_000;
    const student = browser();
    const answer = await student.send(proxy, "/dashboard?tab=fees");
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("5");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const page = await answer.clone().text();
    expect(new TextEncoder().encode(page).length).toBeLessThan(5 * 1024);
    expect(page).toContain('<meta http-equiv="refresh" content="5; url=/dashboard?tab=fees">');
    expect(page).not.toContain("<script");
    expect(page).toContain("You are in line");
    expect(await placeIn(answer)).toEqual({ place: 1, waitSeconds: null });
    expect(student.jar.get("portal_line")).toMatch(/^t\.\d+\.\d+\.\d+\./);
  });

  it("admits in order of arrival across two proxies, whichever proxy each student refreshes on", async () => {
    const [first, second] = [await proxyInstance(1), await proxyInstance(1)];
    await holdTheDoor(api.db, true);
    clock += 1_000;
    // Twelve students arrive at once, half on each proxy.
    const students = Array.from({ length: 12 }, () => browser());
    const arrivals = await Promise.all(
      students.map((student, i) => student.send(i % 2 ? first : second, "/login")),
    );
    const places = await Promise.all(arrivals.map(placeIn));
    expect(places.every((place) => place !== null)).toBe(true);
    // Every place is taken once: one line, not one per proxy.
    expect(places.map((place) => place!.place).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    await holdTheDoor(api.db, false);

    // Each second every student still waiting refreshes, on the proxy they did not arrive on,
    // the later arrivals first. Turns come in order of arrival; a proxy reads the line once a
    // second, so one may let a student in up to a second after a later arrival got in elsewhere.
    const admittedAt = new Map<number, number>();
    for (let round = 0; round < 30 && admittedAt.size < 12; round += 1) {
      clock += 1_000;
      for (const [i, student] of [...students.entries()].reverse()) {
        if (admittedAt.has(i)) continue;
        const answer = await student.send(i % 2 ? second : first, "/login");
        if (answer.status === 200) admittedAt.set(i, round);
        else expect((await placeIn(answer))!.place).toBeGreaterThan(0);
      }
    }
    expect(admittedAt.size).toBe(12);
    const roundsByArrival = [...students.keys()]
      .sort((a, b) => places[a]!.place - places[b]!.place)
      .map((i) => admittedAt.get(i)!);
    const overtaken = roundsByArrival.flatMap((round, i) =>
      roundsByArrival.slice(i + 1).map((later) => round - later),
    );
    expect(Math.max(...overtaken)).toBeLessThanOrEqual(1);
    // Two proxies letting in about one a second each (and the room each had saved while the door
    // was held): the twelve came in over several seconds, not at once.
    expect(new Set(roundsByArrival).size).toBeGreaterThanOrEqual(3);
  });

  it("never moves a student forward for refreshing or opening another tab", async () => {
    const proxy = await proxyInstance(1);
    await holdTheDoor(api.db, true);
    clock += 1_000;
    const ahead = browser();
    const student = browser();
    await ahead.send(proxy, "/login");
    const first = await placeIn(await student.send(proxy, "/login"));
    for (let refresh = 0; refresh < 5; refresh += 1) {
      expect(await placeIn(await student.send(proxy, "/login"))).toEqual(first);
      // A second tab of the same browser shares the ticket.
      expect(await placeIn(await student.send(proxy, "/"))).toEqual(first);
    }
  });

  it("never shows a place higher than one shown before, when a refresh lands on a proxy that read the line earlier", async () => {
    const [fresh, stale] = [await proxyInstance(1), await proxyInstance(1)];
    await holdTheDoor(api.db, true);
    clock += 1_000;
    const students = Array.from({ length: 10 }, () => browser());
    for (const student of students) await student.send(fresh, "/login");
    const watcher = students.at(-1)!;
    await holdTheDoor(api.db, false);
    clock += 1_000;
    // This second one proxy reads the line, then the other moves it on.
    expect(await placeIn(await students[0]!.send(stale, "/login"))).toMatchObject({ place: 1 });
    expect((await students[1]!.send(fresh, "/login")).status).toBe(200);
    const shownByFresh = (await placeIn(await watcher.send(fresh, "/login")))!.place;
    expect(shownByFresh).toBeLessThan(10);
    expect(await placeIn(await watcher.send(stale, "/login"))).toMatchObject({
      place: shownByFresh,
    });
  });

  it("treats a forged, altered, foreign or expired ticket as none: its holder joins at the back", async () => {
    const proxy = await proxyInstance(1);
    await holdTheDoor(api.db, true);
    clock += 1_000;
    const honest = browser();
    const honestPlace = (await placeIn(await honest.send(proxy, "/login")))!.place;
    const ticket = honest.jar.get("portal_line")!;
    const [, number, issuedAt, seen, signature] = ticket.split(".");
    const foreign = await (
      await ticketSigner("another portal's secret, long enough")
    ).ticket({ number: 1, issuedAt: clock / 1000, seenThrough: 0 });
    const stale = await (
      await ticketSigner(TEST_PROXY_SECRET)
    ).ticket({ number: Number(number), issuedAt: clock / 1000 - 3 * 60 * 60, seenThrough: 0 });
    const forgeries = [
      `t.1.${issuedAt}.${seen}.${signature}`,
      `t.${number}.${Number(issuedAt) + 1}.${seen}.${signature}`,
      // Claiming the line has moved past it: a turn that never came.
      `t.${number}.${issuedAt}.${Number(number) + 5}.${signature}`,
      `t.${number}.${issuedAt}.${seen}.${"A".repeat(43)}`,
      foreign,
      stale,
      "t.1",
      "<script>",
    ];
    let lastPlace = honestPlace;
    for (const forged of forgeries) {
      const cheat = browser();
      cheat.jar.set("portal_line", forged);
      const place = (await placeIn(await cheat.send(proxy, "/login")))!.place;
      expect(place).toBeGreaterThan(lastPlace);
      lastPlace = place;
    }
  });

  it("lets a copied ticket in once: the copy that comes second joins at the back", async () => {
    const proxy = await proxyInstance(5);
    await holdTheDoor(api.db, true);
    clock += 1_000;
    const owner = browser();
    await owner.send(proxy, "/login");
    const ticket = owner.jar.get("portal_line")!;
    // Enough behind the owner that a line still stands once the owner's turn has come.
    const others = Array.from({ length: 30 }, () => browser());
    for (const other of others) await other.send(proxy, "/login");
    await holdTheDoor(api.db, false);
    // A second for the proxy to see the door let go, and another for the line to move on.
    clock += 1_000;
    await others[0]!.send(proxy, "/login");
    clock += 1_000;
    const copy = browser();
    copy.jar.set("portal_line", ticket);
    expect((await owner.send(proxy, "/login")).status).toBe(200);
    const copied = await copy.send(proxy, "/login");
    expect(await placeIn(copied)).not.toBeNull();
    expect(copy.jar.get("portal_line")).not.toBe(ticket);
  });

  it("keeps where the student was going when a sign-in form is posted without a turn", async () => {
    const proxy = await proxyInstance(1);
    await holdTheDoor(api.db, true);
    clock += 1_000;
    const student = browser();
    const answer = await student.send(proxy, "/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        username: "08035551000",
        password: "line-pass-1",
        next: "/course-reg",
      }).toString(),
    });
    expect(answer.status).toBe(503);
    expect(await answer.text()).toContain('content="5; url=/login?next=%2Fcourse-reg"');
    expect(student.jar.has("portal_session")).toBe(false);

    const json = await student.send(proxy, "/api/student/uniben/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "08035551000", password: "line-pass-1" }),
    });
    expect(json.status).toBe(503);
    expect(json.headers.get("retry-after")).toBe("5");
    const body = await json.json();
    expect(body.message).toMatch(/You are number 1 in line\..*you keep your place/);
    // The API's error shape, and the place apart, by which page scripts tell the line from a
    // busy portal (both 503 with Retry-After).
    expect(body).toEqual({
      status: "error",
      message: body.message,
      error: { message: body.message },
      line: { place: 1, waitSeconds: null },
    });
  });

  it("lets students already signed in go on, but not sign in again past the line", async () => {
    const proxy = await proxyInstance(2);
    const student = browser();
    expect((await student.send(proxy, "/login")).status).toBe(200);
    const signIn = await student.send(proxy, "/api/student/uniben/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "08035551000", password: "line-pass-1" }),
    });
    expect(signIn.status).toBe(200);
    student.jar.delete("portal_pass");
    await holdTheDoor(api.db, true);
    clock += 1_000;
    expect((await student.send(proxy, "/dashboard")).status).toBe(200);
    const profile = await student.send(proxy, "/api/student/profile");
    expect(profile.status).not.toBe(503);
    const again = await student.send(proxy, "/api/student/uniben/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "08035551000", password: "line-pass-1" }),
    });
    expect(again.status).toBe(503);
    // A made-up session cookie reaches pages (which send it to sign in), never a sign-in.
    const pretender = browser();
    pretender.jar.set("portal_session", "x".repeat(43));
    expect((await pretender.send(proxy, "/dashboard")).status).toBe(200);
    expect(
      (
        await pretender.send(proxy, "/login", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "username=08035551000&password=line-pass-1",
        })
      ).status,
    ).toBe(503);
  });

  it("never holds staff pages, payment news, assets or slip checks", async () => {
    const proxy = await proxyInstance(1);
    await holdTheDoor(api.db, true);
    clock += 1_000;
    const visitor = browser();
    expect((await visitor.send(proxy, "/staff/login")).status).toBe(200);
    expect((await visitor.send(proxy, "/_astro/app.css")).status).toBe(200);
    // The site stylesheet a page that was let in prefetches, or links to (decision 203).
    expect((await visitor.send(proxy, "/site.css?v=0123456789ab")).status).toBe(200);
    expect((await visitor.send(proxy, "/verify/some-token")).status).toBe(200);
    const webhook = await visitor.send(proxy, "/api/paystack/webhook", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(webhook.status).not.toBe(503);
    const notification = await visitor.send(proxy, "/api/remita/webhook", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "[]",
    });
    expect(notification.status).not.toBe(503);
    expect(visitor.jar.has("portal_line")).toBe(false);
  });

  it("opens the door rather than shut students out when the line's store fails", async () => {
    const failing: WaitingLineStore = {
      join: () => Promise.reject(new Error("database gone")),
      read: () => Promise.resolve({ issuedThrough: 5, admittedThrough: 0, held: true }),
      admit: () => Promise.reject(new Error("database gone")),
      exchange: () => Promise.reject(new Error("database gone")),
    };
    const proxy = await proxyInstance(1, failing);
    const answer = await browser().send(proxy, "/login");
    expect(answer.status).toBe(200);
  });

  it("says in /readyz how long the line is and how fast it moves", async () => {
    const proxy = await proxyInstance(1);
    await holdTheDoor(api.db, true);
    clock += 1_000;
    for (let i = 0; i < 3; i += 1) await browser().send(proxy, "/login");
    const ready = await proxy.app.request(`${ORIGIN}/readyz`);
    expect(ready.status).toBe(200);
    const body = await ready.json();
    expect(body.status).toBe("ready");
    expect(body.line).toMatchObject({ waiting: 3, admittingPerSecond: 1 });
  });

  it("shows a door held or let go since the last newcomer in /readyz a second later", async () => {
    const proxy = await proxyInstance(1);
    await browser().send(proxy, "/login");
    await holdTheDoor(api.db, true);
    clock += 1_000;
    const held = await (await proxy.app.request(`${ORIGIN}/readyz`)).json();
    expect(held.line).toMatchObject({ held: true, waiting: 0 });
    await holdTheDoor(api.db, false);
    clock += 1_000;
    const open = await (await proxy.app.request(`${ORIGIN}/readyz`)).json();
    expect(open.line).toMatchObject({ held: false });
  });
});
