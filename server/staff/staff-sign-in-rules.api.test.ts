import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, staff } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { codeFor, createStaff, latestStaffLink, staffSignIn } from "./staff.test-kit.ts";

// Issue 30, items 19–21 and 23: password links, binding an authenticator, sign-in waits, ids and caching.
let api: ApiHarness;
let admin: Awaited<ReturnType<typeof createStaff>>;
let adminToken: string;

beforeAll(async () => {
  api = await createApiHarness();
  admin = await createStaff(api, { roles: ["admin"], totp: true });
  adminToken = await staffSignIn(api, admin);
});
afterAll(() => api.close());

const asAdmin = (path: string, init: { method?: string; json?: unknown } = {}) =>
  api.request(path, { ...init, token: adminToken });
const setPassword = (token: string | null, password: string) =>
  api.request("/staff/password/set", { method: "POST", json: { token, password } });
const signInFrom = (email: string, password: string, clientAddress: string) =>
  api.request("/staff/login", { method: "POST", json: { email, password }, clientAddress });
/** Sessions end after 30 idle minutes: the administrator signs in again after the clock jumps. */
const freshAdmin = async () => {
  adminToken = await staffSignIn(api, admin);
};

describe("password links (item 19)", () => {
  it("gives a link for an account that has a password one hour, and an invitation 72", async () => {
    const member = await createStaff(api, { roles: ["support"] });
    expect(
      (await asAdmin(`/staff/accounts/${member.id}/password-link`, { method: "POST" })).status,
    ).toBe(200);
    const reset = await latestStaffLink(api, member.email);

    const created = await asAdmin("/staff/accounts", {
      method: "POST",
      json: { name: "New Officer", email: "new.officer@college.test", roles: ["support"] },
    });
    expect(created.status).toBe(201);
    const invitation = await latestStaffLink(api, "new.officer@college.test");

    api.clock.advance(61 * 60_000);
    const late = await setPassword(reset, "too-late-for-this");
    expect(late.status).toBe(400);
    expect((await late.json()).error.message).toMatch(/^This link is not valid/);
    await expect(staffSignIn(api, member)).resolves.toBeTruthy();

    api.clock.advance(70 * 60 * 60_000);
    expect((await setPassword(invitation, "opened-after-leave")).status).toBe(200);
    await freshAdmin();
  });

  it("never lets a link sent before a deactivation work after a reactivation", async () => {
    const member = await createStaff(api, { roles: ["registry"] });
    expect(
      (await asAdmin(`/staff/accounts/${member.id}/password-link`, { method: "POST" })).status,
    ).toBe(200);
    const token = await latestStaffLink(api, member.email);
    const off = await asAdmin(`/staff/accounts/${member.id}`, {
      method: "PATCH",
      json: { active: false },
    });
    expect((await off.json()).message).toBe(
      `Account deactivated: ${member.name} can no longer sign in.`,
    );
    const on = await asAdmin(`/staff/accounts/${member.id}`, {
      method: "PATCH",
      json: { active: true },
    });
    expect((await on.json()).message).toMatch(
      new RegExp(`^Account activated: ${member.name} can sign in again\\.`),
    );

    expect((await setPassword(token, "a-revived-link-pw")).status).toBe(400);
    await expect(staffSignIn(api, member)).resolves.toBeTruthy();
    // A link sent after the reactivation works.
    expect(
      (await asAdmin(`/staff/accounts/${member.id}/password-link`, { method: "POST" })).status,
    ).toBe(200);
    expect(
      (await setPassword(await latestStaffLink(api, member.email), "a-fresh-link-pw")).status,
    ).toBe(200);
  });
});

describe("binding an authenticator takes the password again (item 20)", () => {
  const enrolling = async () => {
    const member = await createStaff(api, { roles: ["bursar"] });
    const token = await staffSignIn(api, member);
    expect((await api.request("/staff/totp/start", { method: "POST", token })).status).toBe(200);
    return { member, token };
  };
  const enrolled = async (id: number) =>
    (
      await api.db
        .select()
        .from(staff)
        .where(and(eq(staff.id, id), isNull(staff.totpSecret)))
    ).length === 0;

  it("refuses a missing or wrong password, binding nothing, and binds with the right one", async () => {
    const { member, token } = await enrolling();
    const confirm = async (json: unknown) =>
      api.request("/staff/totp/confirm", { method: "POST", token, json });
    const missing = await confirm({ code: await codeFor(api, member.id) });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.message).toBe(
      "Enter your password to set up the authenticator.",
    );
    const wrong = await confirm({ code: await codeFor(api, member.id), password: "someone-elses" });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toMatchObject({
      message: "That password is not right. Enter the password you signed in with.",
      fields: { password: "That password is not right." },
    });
    expect(await enrolled(member.id)).toBe(false);

    const right = await confirm({
      code: await codeFor(api, member.id),
      password: "staff-password",
    });
    expect(right.status).toBe(200);
    expect(await enrolled(member.id)).toBe(true);
  });

  it("counts wrong passwords there as failed sign-ins: a guesser on an open session is slowed too", async () => {
    const { member, token } = await enrolling();
    const statuses = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const answer = await api.request("/staff/totp/confirm", {
        method: "POST",
        token,
        json: { code: "123456", password: `guess-${attempt}` },
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    expect(await enrolled(member.id)).toBe(false);
  });
});

describe("wrong passwords slow one network for one e-mail (item 21)", () => {
  const HOME = "198.51.100.7";
  const AWAY = "192.0.2.44";

  it("slows only that network for that e-mail, never past 15 minutes a wait, and the administrator can clear it", async () => {
    const member = await createStaff(api, { roles: ["registry"] });
    const neighbour = await createStaff(api, { roles: ["registry"] });
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await signInFrom(member.email, "wrong-password", HOME)).status).toBe(401);
    const slowed = await signInFrom(member.email, "staff-password", HOME);
    expect(slowed.status).toBe(429);
    expect((await slowed.json()).error.message).toMatch(
      /^Too many failed sign-in attempts\. Wait 1 minute/,
    );
    // Another network for the same e-mail, and the same network for another e-mail, are not slowed.
    expect((await signInFrom(neighbour.email, "staff-password", HOME)).status).toBe(200);
    expect((await signInFrom(member.email, "wrong-password", AWAY)).status).toBe(401);

    // A guesser who keeps going waits longer each time, but never more than 15 minutes.
    let longest = 0;
    for (let round = 0; round < 10; round++) {
      const refused = await signInFrom(member.email, "wrong-password", HOME);
      expect(refused.status).toBe(429);
      const wait = Number(refused.headers.get("retry-after"));
      longest = Math.max(longest, wait);
      expect(wait).toBeLessThanOrEqual(15 * 60);
      api.clock.advance(wait * 1000);
      expect((await signInFrom(member.email, "wrong-password", HOME)).status).toBe(401);
    }
    expect(longest).toBe(15 * 60);
    await freshAdmin();

    const listed = (await (await asAdmin("/staff/accounts")).json()) as {
      data: { id: number; sign_in: { slowed: boolean; failures: number } }[];
    };
    expect(listed.data.find((row) => row.id === member.id)!.sign_in.slowed).toBe(true);
    expect(listed.data.find((row) => row.id === neighbour.id)!.sign_in).toEqual({
      failures: 0,
      slowed: false,
    });

    // Only an administrator clears it; then the right password gets in at once.
    const registry = await staffSignIn(api, await createStaff(api, { roles: ["registry"] }));
    expect(
      (
        await api.request(`/staff/accounts/${member.id}/sign-in-wait`, {
          method: "DELETE",
          token: registry,
        })
      ).status,
    ).toBe(403);
    expect((await signInFrom(member.email, "staff-password", HOME)).status).toBe(429);
    const cleared = await asAdmin(`/staff/accounts/${member.id}/sign-in-wait`, {
      method: "DELETE",
    });
    expect(cleared.status).toBe(200);
    expect((await cleared.json()).message).toBe(
      `Sign-in wait cleared: ${member.name} can sign in again now.`,
    );
    expect((await signInFrom(member.email, "staff-password", HOME)).status).toBe(200);
    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, "staff.sign_in_wait_cleared"),
          eq(auditLog.entityId, String(member.id)),
        ),
      );
    expect(entry).toMatchObject({ staffId: admin.id, after: { failed_sign_ins: 0 } });

    const nothing = await asAdmin(`/staff/accounts/${neighbour.id}/sign-in-wait`, {
      method: "DELETE",
    });
    expect((await nothing.json()).message).toBe(
      `${neighbour.name} has no wait to clear: no failed sign-ins are counted.`,
    );
  });
});

describe("every staff route with a numeric id, and what staff answers may be kept (item 23)", () => {
  const HUGE = "99999999999";
  const routes: [string, string][] = [
    ["PATCH", `/staff/accounts/${HUGE}`],
    ["POST", `/staff/accounts/${HUGE}/password-link`],
    ["POST", `/staff/accounts/${HUGE}/totp-reset`],
    ["DELETE", `/staff/accounts/${HUGE}/sign-in-wait`],
    ["PATCH", `/staff/library/${HUGE}`],
    ["PUT", `/staff/announcements/${HUGE}`],
    ["DELETE", `/staff/announcements/${HUGE}`],
    ["PATCH", `/staff/faculties/${HUGE}`],
    ["PATCH", `/staff/departments/${HUGE}`],
    ["PATCH", `/staff/programmes/${HUGE}`],
    ["PATCH", `/staff/courses/${HUGE}`],
    ["PATCH", `/staff/fees/${HUGE}`],
    ["PATCH", `/staff/sessions/${HUGE}/late-fees`],
    ["POST", `/staff/sessions/${HUGE}/current`],
    ["PATCH", `/staff/sessions/${HUGE}/registration`],
    ["GET", `/staff/sessions/${HUGE}/promotion`],
    ["POST", `/staff/sessions/${HUGE}/promotion`],
    ["GET", `/staff/students/${HUGE}`],
    ["PATCH", `/staff/students/${HUGE}`],
    ["POST", `/staff/students/${HUGE}/lock`],
    ["DELETE", `/staff/students/${HUGE}/sign-in-lockout`],
    ["POST", `/staff/students/${HUGE}/activation-link`],
    ["GET", `/staff/registrations/${HUGE}`],
    ["POST", `/staff/registrations/${HUGE}/approve`],
    ["POST", `/staff/registrations/${HUGE}/return`],
    ["POST", `/staff/registrations/${HUGE}/reopen`],
    ["POST", `/staff/sessions/${HUGE}/promotion/check`],
    ["GET", `/staff/sessions/${HUGE}/promotion/undo`],
    ["POST", `/staff/sessions/${HUGE}/promotion/undo`],
    ["GET", `/staff/refunds/${HUGE}`],
    ["POST", `/staff/refunds/${HUGE}/approve`],
    ["POST", `/staff/refunds/${HUGE}/decline`],
    ["POST", `/staff/refunds/${HUGE}/paid-outside`],
    ["POST", `/staff/refunds/${HUGE}/not-paid-outside`],
    ["PATCH", `/staff/modes/study/${HUGE}`],
    ["GET", `/staff/fees/${HUGE}/split`],
    ["PUT", `/staff/fees/${HUGE}/split`],
    ["GET", `/staff/results/offerings/${HUGE}`],
    ["GET", `/staff/results/offerings/${HUGE}/scores.csv`],
    ["PUT", `/staff/results/offerings/${HUGE}/scores`],
    ["POST", `/staff/results/offerings/${HUGE}/scores/import`],
    ["POST", `/staff/results/offerings/${HUGE}/submit`],
    ["POST", `/staff/results/offerings/${HUGE}/amendments`],
    ["GET", `/staff/results/review/${HUGE}`],
    ["POST", `/staff/results/review/${HUGE}/approve`],
    ["POST", `/staff/results/review/${HUGE}/return`],
    ["POST", `/staff/transcripts/${HUGE}/release`],
  ];
  let everyRole: string;

  beforeAll(async () => {
    const department = api.school.departments[0]!.id;
    everyRole = await staffSignIn(
      api,
      await createStaff(api, {
        roles: ["registry", "adviser", "bursar", "support", "admin", "lecturer", "hod", "exams"],
        totp: true,
        advises: [{ department_id: department, level: 100 }],
      }),
    );
  });

  it.each(routes)("%s %s answers 404, not stored", async (method, path) => {
    const answer = await api.request(path, {
      method,
      token: everyRole,
      json: method === "GET" ? undefined : {},
    });
    expect(answer.status).toBe(404);
    expect(answer.headers.get("cache-control")).toBe("private, no-store");
  });

  it("refuses an id filter past the largest id with a clear 400", async () => {
    const answer = await api.request(`/staff/audit?staff_id=${HUGE}`, { token: everyRole });
    expect(answer.status).toBe(400);
    expect((await answer.json()).error.message).toBe("Choose a staff member from the list.");
  });

  it("marks every staff answer private and unstored: data, refusals and unknown addresses", async () => {
    const student = await api.signIn((await api.createStudent()).phone);
    const answers = await Promise.all([
      api.request("/staff/accounts", { token: adminToken }),
      api.request("/staff/accounts"),
      api.request("/staff/accounts", { token: student }),
      api.request("/staff/no-such-page", { token: adminToken }),
      api.request("/staff/login", {
        method: "POST",
        json: { email: "nobody@college.test", password: "x" },
      }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 401, 403, 404, 401]);
    for (const answer of answers)
      expect(answer.headers.get("cache-control")).toBe("private, no-store");
  });
});
