import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.ts";

let api: ApiHarness;
let student: Awaited<ReturnType<ApiHarness["createStudent"]>>;

beforeAll(async () => {
  api = await createApiHarness();
  student = await api.createStudent({ phone: "08031112222", password: "correct-horse" });
});
afterAll(() => api.close());

const login = (json: unknown, clientAddress?: string) =>
  api.request("/student/uniben/login", { method: "POST", json, clientAddress });

describe("POST /student/uniben/login", () => {
  it("answers the spec's shape: data.tokens.access and data.tokens.student", async () => {
    const response = await login({ username: "08031112222", password: "correct-horse" });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.data.tokens.access).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(body.data.tokens.student).toMatchObject({
      id: student.id,
      phone: "08031112222",
      surname: student.surname,
      course_of_study: "Biology",
      faculty: "School of Sciences",
      payment_complete: null,
    });
    expect(JSON.stringify(body)).not.toContain("password");
  });

  it("accepts the phone number written in international form", async () => {
    const response = await login({ username: "+234 803 111 2222", password: "correct-horse" });
    expect(response.status).toBe(200);
  });

  it("answers the same 401 for an unknown phone and for a wrong password", async () => {
    const unknown = await login({ username: "08039999999", password: "correct-horse" }, "198.51.100.1");
    const wrong = await login({ username: "08031112222", password: "wrong-horse" }, "198.51.100.2");
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const [a, b] = [await unknown.json(), await wrong.json()];
    expect(a).toEqual(b);
    expect(a.error.message).toBe("That phone number or password is wrong. Check both and try again.");
  });

  it.each([
    ["no body fields", {}, "Enter your phone number."],
    ["no password", { username: "08031112222" }, "Enter your password."],
    ["empty phone", { username: "  ", password: "x" }, "Enter your phone number."],
    ["phone as a number", { username: 8031112222, password: "x" }, "Enter your phone number."],
    ["an array password", { username: "08031112222", password: ["x"] }, "Enter your password."],
    ["an overlong phone", { username: "0".repeat(40), password: "x" }, "That phone number is too long."],
  ])("refuses %s with a 400 naming the problem", async (_case, json, message) => {
    const response = await login(json);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(message);
  });

  it("treats SQL-looking input as an ordinary wrong sign-in", async () => {
    const response = await login({ username: "' OR 1=1; --", password: "' OR '1'='1" }, "198.51.100.3");
    expect(response.status).toBe(401);
  });

  it("refuses a body that is not JSON and an oversized body without a 500", async () => {
    const notJson = await api.request("/student/uniben/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(notJson.status).toBe(400);
    const huge = await login({ username: "08031112222", password: "x".repeat(100_000) });
    expect(huge.status).toBe(413);
  });
});

describe("failed sign-in rate limit", () => {
  it("blocks a phone after 10 failures in 15 minutes with a clear 429, then lets it in later", async () => {
    const target = await api.createStudent({ phone: "08032223333", password: "right-one" });
    for (let attempt = 0; attempt < 10; attempt++) {
      const response = await login({ username: target.phone, password: "nope" }, `192.0.2.${attempt}`);
      expect(response.status).toBe(401);
    }
    const blocked = await login({ username: target.phone, password: "right-one" }, "192.0.2.200");
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await blocked.json()).error.message).toMatch(/Too many failed sign-in attempts/);

    api.clock.advance(16 * 60_000);
    expect((await login({ username: target.phone, password: "right-one" }, "192.0.2.201")).status).toBe(200);
  });

  it("holds the limit against a burst of parallel guesses: only 10 are checked", async () => {
    const target = await api.createStudent({ phone: "08032224444", password: "right-one" });
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, attempt) =>
        login({ username: target.phone, password: `guess-${attempt}` }, `192.0.3.${attempt}`),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(20).fill(429)]);
  });

  it("does not count a client's right sign-ins against it", async () => {
    const client = "192.0.4.1";
    for (let attempt = 0; attempt < 9; attempt++) {
      await login({ username: `0809000000${attempt}`, password: "nope" }, client);
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await login({ username: "08031112222", password: "correct-horse" }, client)).status).toBe(200);
    }
    expect((await login({ username: "08090000009", password: "nope" }, client)).status).toBe(401);
    expect((await login({ username: "08031112222", password: "correct-horse" }, client)).status).toBe(429);
  });

  it("blocks one client trying many phones", async () => {
    for (let attempt = 0; attempt < 10; attempt++) {
      await login({ username: `0807000000${attempt}`, password: "nope" }, "192.0.2.99");
    }
    const blocked = await login({ username: "08031112222", password: "correct-horse" }, "192.0.2.99");
    expect(blocked.status).toBe(429);
    const otherClient = await login({ username: "08031112222", password: "correct-horse" }, "192.0.2.98");
    expect(otherClient.status).toBe(200);
  });
});

describe("sessions", () => {
  it("refuses calls without a token, with a malformed one and after logout", async () => {
    expect((await api.request("/student/me")).status).toBe(401);
    expect((await api.request("/student/me", { token: "short" })).status).toBe(401);
    const token = await api.signIn("08031112222", "correct-horse");
    expect((await api.request("/student/me", { token })).status).toBe(200);
    expect((await api.request("/student/logout", { method: "POST", token })).status).toBe(200);
    const after = await api.request("/student/me", { token });
    expect(after.status).toBe(401);
    expect((await after.json()).error.message).toBe("Your session has ended. Please sign in again.");
  });

  it("expires after the idle limit and after the absolute limit", async () => {
    const idle = await api.signIn("08031112222", "correct-horse");
    api.clock.advance(121 * 60_000);
    expect((await api.request("/student/me", { token: idle })).status).toBe(401);

    const busy = await api.signIn("08031112222", "correct-horse");
    for (let hour = 0; hour < 12; hour++) {
      api.clock.advance(60 * 60_000);
      const response = await api.request("/student/me", { token: busy });
      expect(response.status).toBe(hour < 11 ? 200 : 401);
    }
  });
});
