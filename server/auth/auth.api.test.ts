import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimits, students } from "../db/schema.ts";
import {
  createApiHarness,
  TEST_PASSWORD_COST,
  TEST_PROXY_SECRET,
  type ApiHarness,
} from "../testing/api-harness.test-kit.ts";
import { PROXY_SECRET_HEADER } from "../../common/http/proxy-secret.ts";
import { legacyScryptHash } from "../testing/legacy-password-hash.test-kit.ts";
import { hashPassword, needsRehash } from "./password.ts";
import {
  FAILURES_PER_CLIENT,
  FAILURES_PER_PHONE,
  FAILURES_PER_PHONE_AND_CLIENT,
} from "./sign-in-limits.ts";

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
    const unknown = await login(
      { username: "08039999999", password: "correct-horse" },
      "198.51.100.1",
    );
    const wrong = await login({ username: "08031112222", password: "wrong-horse" }, "198.51.100.2");
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const [a, b] = [await unknown.json(), await wrong.json()];
    expect(a).toEqual(b);
    expect(a.error.message).toBe(
      "That phone number or password is wrong. Check both and try again.",
    );
  });

  it.each([
    ["no body fields", {}, "Enter your phone number."],
    ["no password", { username: "08031112222" }, "Enter your password."],
    ["empty phone", { username: "  ", password: "x" }, "Enter your phone number."],
    ["phone as a number", { username: 8031112222, password: "x" }, "Enter your phone number."],
    ["an array password", { username: "08031112222", password: ["x"] }, "Enter your password."],
    [
      "an overlong phone",
      { username: "0".repeat(40), password: "x" },
      "That phone number is too long.",
    ],
  ])("refuses %s with a 400 naming the problem", async (_case, json, message) => {
    const response = await login(json);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(message);
  });

  it("treats SQL-looking input as an ordinary wrong sign-in", async () => {
    const response = await login(
      { username: "' OR 1=1; --", password: "' OR '1'='1" },
      "198.51.100.3",
    );
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

describe("password hashes from before argon2id (decision 110)", () => {
  let phones = 0;
  const studentWithHash = async (passwordHash: string) => {
    const created = await api.createStudent({ phone: `0807${String(++phones).padStart(7, "0")}` });
    await api.db.update(students).set({ passwordHash }).where(eq(students.id, created.id));
    return created;
  };
  const storedHash = async (id: number) =>
    (
      await api.db
        .select({ passwordHash: students.passwordHash })
        .from(students)
        .where(eq(students.id, id))
    )[0]!.passwordHash;

  it("signs in a student whose hash is still scrypt, stores argon2id instead, and the new hash works next time", async () => {
    const old = await studentWithHash(legacyScryptHash("kept-since-2023"));
    expect(
      (await login({ username: old.phone, password: "kept-since-2023" }, "192.0.2.51")).status,
    ).toBe(200);

    const upgraded = await storedHash(old.id);
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$/);
    expect(needsRehash(upgraded, TEST_PASSWORD_COST)).toBe(false);
    expect(
      (await login({ username: old.phone, password: "kept-since-2023" }, "192.0.2.52")).status,
    ).toBe(200);
    // Already current: the second sign-in does not write a new hash.
    expect(await storedHash(old.id)).toBe(upgraded);
    expect(
      (await login({ username: old.phone, password: "kept-since-2022" }, "192.0.2.53")).status,
    ).toBe(401);
  });

  it("leaves the stored scrypt hash untouched when the password is wrong", async () => {
    const scrypt = legacyScryptHash("kept-since-2023");
    const old = await studentWithHash(scrypt);
    expect(
      (await login({ username: old.phone, password: "a-wrong-guess" }, "192.0.2.54")).status,
    ).toBe(401);
    expect(await storedHash(old.id)).toBe(scrypt);
  });

  it("moves an argon2id hash made at another cost to the current one", async () => {
    const other = await hashPassword("kept-since-2024", {
      memoryKiB: 32,
      passes: 3,
      parallelism: 1,
    });
    const student = await studentWithHash(other);
    expect(
      (await login({ username: student.phone, password: "kept-since-2024" }, "192.0.2.55")).status,
    ).toBe(200);
    const upgraded = await storedHash(student.id);
    expect(upgraded).not.toBe(other);
    expect(needsRehash(upgraded, TEST_PASSWORD_COST)).toBe(false);
  });
});

describe("failed sign-in limits (decision 053)", () => {
  const { freeAttempts } = FAILURES_PER_PHONE_AND_CLIENT;
  let phones = 0;
  const newStudent = () =>
    api.createStudent({ phone: `0804${String(++phones).padStart(7, "0")}`, password: "right-one" });
  const fail = (phone: string, client: string) =>
    login({ username: phone, password: "nope" }, client);
  const retryAfter = (response: Response) => Number(response.headers.get("retry-after"));

  it("slows one client guessing one phone with a wait that doubles, up to 15 minutes", async () => {
    const target = await newStudent();
    const client = "192.0.2.10";
    for (let attempt = 0; attempt < freeAttempts; attempt++) {
      expect((await fail(target.phone, client)).status).toBe(401);
    }
    const waits: number[] = [];
    for (let round = 0; round < 7; round++) {
      const refused = await fail(target.phone, client);
      expect(refused.status).toBe(429);
      expect((await refused.json()).error.message).toMatch(
        /^Too many failed sign-in attempts\. Wait \d+ minutes? and try again, or reset your password\.$/,
      );
      waits.push(retryAfter(refused));
      api.clock.advance(retryAfter(refused) * 1000);
      expect((await fail(target.phone, client)).status).toBe(401);
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 900, 900]);
  });

  it("does not lengthen the wait for attempts made during it", async () => {
    const target = await newStudent();
    for (let attempt = 0; attempt <= freeAttempts; attempt++)
      await fail(target.phone, "192.0.2.11");
    api.clock.advance(10_000);
    const early = await fail(target.phone, "192.0.2.11");
    expect(retryAfter(early)).toBe(20);
  });

  it("lets the owner in from their own network while someone elsewhere hammers the phone", async () => {
    const target = await newStudent();
    const statuses = [];
    for (let attempt = 0; attempt < 30; attempt++) {
      statuses.push((await fail(target.phone, "192.0.2.66")).status);
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(freeAttempts);
    const owner = await login({ username: target.phone, password: "right-one" }, "192.0.2.200");
    expect(owner.status).toBe(200);
  });

  it("under distributed guessing, gives each network one attempt: the owner's right password gets in", async () => {
    const target = await newStudent();
    for (let client = 0; client < FAILURES_PER_PHONE.limit; client++) {
      expect((await fail(target.phone, `198.18.0.${client}`)).status).toBe(401);
    }
    expect((await fail(target.phone, "198.18.1.1")).status).toBe(401);
    const secondTry = await fail(target.phone, "198.18.1.1");
    expect(secondTry.status).toBe(429);
    expect(retryAfter(secondTry)).toBeLessThanOrEqual(15 * 60);

    const owner = await login({ username: target.phone, password: "right-one" }, "192.0.2.201");
    expect(owner.status).toBe(200);
  });

  it("holds the limit against a burst of parallel guesses from one client", async () => {
    const target = await newStudent();
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, attempt) =>
        login({ username: target.phone, password: `guess-${attempt}` }, "192.0.3.1"),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([
      ...Array(freeAttempts).fill(401),
      ...Array(30 - freeAttempts).fill(429),
    ]);
  });

  it("counts a refused attempt nowhere: not on the client's network, not on the phone", async () => {
    const target = await newStudent();
    for (let attempt = 0; attempt < freeAttempts + 3; attempt++)
      await fail(target.phone, "192.0.3.77");
    const counted = await api.db
      .select({ key: rateLimits.key, hits: rateLimits.hits })
      .from(rateLimits)
      .where(inArray(rateLimits.key, [`login:client:192.0.3.77`, `login:phone:${target.phone}`]));
    expect(counted.map(({ hits }) => hits)).toEqual([freeAttempts, freeAttempts]);
  });

  it("commits the counters without waiting for the disk in their own statement only", async () => {
    const target = await newStudent();
    await fail(target.phone, "192.0.3.78");
    expect(
      (await login({ username: target.phone, password: "right-one" }, "192.0.3.78")).status,
    ).toBe(200);
    // More at once than the pool has connections, so every pooled connection answers.
    const settings = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.db.execute<{ synchronous_commit: string }>(sql`show synchronous_commit`),
      ),
    );
    expect(new Set(settings.map(({ rows }) => rows[0]!.synchronous_commit))).toEqual(
      new Set(["on"]),
    );
  });

  it("forgives a client's failures on a phone once the right password is given", async () => {
    const target = await newStudent();
    for (let attempt = 0; attempt < freeAttempts - 1; attempt++)
      await fail(target.phone, "192.0.4.1");
    expect(
      (await login({ username: target.phone, password: "right-one" }, "192.0.4.1")).status,
    ).toBe(200);
    for (let attempt = 0; attempt < freeAttempts; attempt++) {
      expect((await fail(target.phone, "192.0.4.1")).status).toBe(401);
    }
  });

  it("counts one IPv6 /64 as one client", async () => {
    const target = await newStudent();
    for (let attempt = 0; attempt < freeAttempts; attempt++) {
      await fail(target.phone, `2001:db8:1:2::${attempt + 1}`);
    }
    expect((await fail(target.phone, "2001:db8:1:2:ffff::9")).status).toBe(429);
    expect((await fail(target.phone, "2001:db8:1:3::1")).status).toBe(401);
  });

  it("blocks one client network trying many phones, but not a campus's worth of mistakes", async () => {
    const client = "192.0.2.99";
    const perStudent = freeAttempts;
    const students = Math.ceil(FAILURES_PER_CLIENT.limit / perStudent);
    let refused = 0;
    for (let index = 0; index < students; index++) {
      const target = await newStudent();
      for (let attempt = 0; attempt < perStudent; attempt++) {
        if ((await fail(target.phone, client)).status === 429) refused++;
      }
    }
    expect(refused).toBe(0);
    const blocked = await login({ username: "08031112222", password: "correct-horse" }, client);
    expect(blocked.status).toBe(429);
    const otherClient = await login(
      { username: "08031112222", password: "correct-horse" },
      "192.0.2.98",
    );
    expect(otherClient.status).toBe(200);
  });
});

describe("the client a sign-in counts against (decision 122)", () => {
  const { freeAttempts } = FAILURES_PER_PHONE_AND_CLIENT;
  let phones = 0;
  const newStudent = () =>
    api.createStudent({ phone: `0805${String(++phones).padStart(7, "0")}`, password: "right-one" });
  /** A wrong password sent to the API directly, naming its own x-forwarded-for. */
  const direct = (
    phone: string,
    forwardedFor: string,
    options: { secret?: string; socket?: string } = {},
  ) =>
    api.app.request(
      "/student/uniben/login",
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-forwarded-for": forwardedFor,
          ...(options.secret === undefined ? {} : { [PROXY_SECRET_HEADER]: options.secret }),
        },
        body: JSON.stringify({ username: phone, password: "nope" }),
      },
      options.socket ? { incoming: { socket: { remoteAddress: options.socket } } } : undefined,
    );

  it.each([
    ["without the proxy's secret", undefined],
    ["with a wrong secret", `${TEST_PROXY_SECRET.slice(0, -1)}X`],
  ])("cannot pick a fresh rate-limit bucket by x-forwarded-for %s", async (_case, secret) => {
    const target = await newStudent();
    for (let attempt = 0; attempt < freeAttempts; attempt++) {
      expect((await direct(target.phone, `203.0.113.${attempt + 1}`, { secret })).status).toBe(401);
    }
    // A sixth made-up address is still the same caller, already at its limit.
    expect((await direct(target.phone, "203.0.113.99", { secret })).status).toBe(429);
    // The proxy, with the secret, speaks for a client whose own bucket is untouched.
    expect((await login({ username: target.phone, password: "nope" }, "203.0.113.99")).status).toBe(
      401,
    );
  });

  it("counts a caller without the secret as its socket's address", async () => {
    const target = await newStudent();
    for (let attempt = 0; attempt < freeAttempts; attempt++) {
      expect(
        (await direct(target.phone, `10.0.0.${attempt + 1}`, { socket: "198.51.100.77" })).status,
      ).toBe(401);
    }
    expect((await direct(target.phone, "10.0.0.99", { socket: "198.51.100.77" })).status).toBe(429);
    expect((await direct(target.phone, "10.0.0.99", { socket: "198.51.100.78" })).status).toBe(401);
  });

  it("believes the proxy's x-forwarded-for, so students behind it each have their own bucket", async () => {
    const target = await newStudent();
    for (let attempt = 0; attempt < freeAttempts; attempt++) {
      expect(
        (
          await direct(target.phone, "192.0.2.120", {
            secret: TEST_PROXY_SECRET,
            socket: "10.1.1.1",
          })
        ).status,
      ).toBe(401);
    }
    expect(
      (await direct(target.phone, "192.0.2.120", { secret: TEST_PROXY_SECRET, socket: "10.1.1.1" }))
        .status,
    ).toBe(429);
    expect(
      (await direct(target.phone, "192.0.2.121", { secret: TEST_PROXY_SECRET, socket: "10.1.1.1" }))
        .status,
    ).toBe(401);
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
    expect((await after.json()).error.message).toBe(
      "Your session has ended. Please sign in again.",
    );
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
