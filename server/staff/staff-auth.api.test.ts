import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { staff } from "../db/schema.ts";
import {
  createApiHarness,
  TEST_PASSWORD_COST,
  type ApiHarness,
} from "../testing/api-harness.test-kit.ts";
import { legacyScryptHash } from "../testing/legacy-password-hash.test-kit.ts";
import * as passwords from "../auth/password.ts";
import { needsRehash } from "../auth/password.ts";
import { issueStaffPasswordToken, INVITE_LINK_HOURS } from "./password-links.ts";
import { codeFor, createStaff, staffSignIn } from "./staff.test-kit.ts";
import { STAFF_SESSION_LIMITS } from "./staff-sessions.ts";
import { currentCode, hashRecoveryCode, newTotpSecret } from "./totp.ts";

let api: ApiHarness;
let clients = 0;
const nextClient = () => `198.51.100.${++clients}`;

beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api.close());

const login = (json: unknown, clientAddress = nextClient()) =>
  api.request("/staff/login", { method: "POST", json, clientAddress });
const stageOf = async (response: Response) =>
  ((await response.json()) as { data: { stage: string } }).data.stage;

describe("POST /staff/login", () => {
  it("signs a registry officer in at once: no authenticator is required for that role", async () => {
    const member = await createStaff(api, { roles: ["registry"] });
    const response = await login({ email: member.email.toUpperCase(), password: "staff-password" });
    expect(response.status).toBe(200);
    expect(await stageOf(response)).toBe("ready");
  });

  it("answers the same 401 for an unknown e-mail, a wrong password, a deactivated account and one with no password yet", async () => {
    const known = await createStaff(api, { roles: ["support"] });
    const inactive = await createStaff(api, { roles: ["support"], active: false });
    const [invited] = await api.db
      .insert(staff)
      .values({ name: "New", email: "new@college.test", roles: ["support"] })
      .returning();
    const answers = await Promise.all([
      login({ email: "nobody@college.test", password: "staff-password" }),
      login({ email: known.email, password: "wrong-password" }),
      login({ email: inactive.email, password: "staff-password" }),
      login({ email: invited!.email, password: "anything" }),
    ]);
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401]);
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    expect(bodies[0].error.message).toBe(
      "That e-mail address or password is wrong. Check both and try again.",
    );
  });

  it.each([
    ["no fields", {}, "Enter an e-mail address."],
    [
      "a malformed e-mail",
      { email: "registry", password: "x" },
      "Enter a valid e-mail address, like name@college.edu.ng.",
    ],
    ["no password", { email: "a@college.test" }, "Enter your password."],
  ])("refuses %s with 400", async (_case, json, message) => {
    const response = await login(json);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(message);
  });

  it("slows guesses from one address without locking the owner out from their own desk", async () => {
    const member = await createStaff(api, { roles: ["registry"] });
    // The students' rules (decision 053): five free failures per e-mail and network, then a wait.
    for (let i = 0; i < 5; i++)
      expect((await login({ email: member.email, password: "guess" }, "203.0.113.66")).status).toBe(
        401,
      );
    const limited = await login(
      { email: member.email, password: "staff-password" },
      "203.0.113.66",
    );
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    const owner = await login({ email: member.email, password: "staff-password" }, "192.0.2.200");
    expect(owner.status).toBe(200);
  });
});

describe("password hashes from before argon2id (decision 110)", () => {
  const storedHash = async (id: number) =>
    (
      await api.db.select({ passwordHash: staff.passwordHash }).from(staff).where(eq(staff.id, id))
    )[0]!.passwordHash;
  const memberWithScrypt = async (password: string) => {
    const member = await createStaff(api, { roles: ["registry"] });
    const scrypt = legacyScryptHash(password);
    await api.db.update(staff).set({ passwordHash: scrypt }).where(eq(staff.id, member.id));
    return { member, scrypt };
  };

  it("signs in a member whose hash is still scrypt, stores argon2id instead, and the new hash works next time", async () => {
    const { member } = await memberWithScrypt("registry-since-2023");
    expect((await login({ email: member.email, password: "registry-since-2023" })).status).toBe(
      200,
    );

    const upgraded = (await storedHash(member.id))!;
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$/);
    expect(needsRehash(upgraded, TEST_PASSWORD_COST)).toBe(false);
    expect((await login({ email: member.email, password: "registry-since-2023" })).status).toBe(
      200,
    );
    expect(await storedHash(member.id)).toBe(upgraded);
  });

  it("leaves the stored scrypt hash untouched when the password is wrong", async () => {
    const { member, scrypt } = await memberWithScrypt("registry-since-2023");
    expect((await login({ email: member.email, password: "a-wrong-guess" })).status).toBe(401);
    expect(await storedHash(member.id)).toBe(scrypt);
  });
});

describe("the second factor", () => {
  it("asks an admin without an authenticator to set one up, and opens nothing else until then", async () => {
    const admin = await createStaff(api, { roles: ["admin"] });
    const response = await login({ email: admin.email, password: "staff-password" });
    const token = ((await response.json()) as { data: { tokens: { access: string } } }).data.tokens
      .access;
    const accounts = await api.request("/staff/accounts", { token });
    expect(accounts.status).toBe(403);

    const started = await api.request("/staff/totp/start", { method: "POST", token });
    expect(started.status).toBe(200);
    const { data } = (await started.json()) as { data: { secret: string; uri: string } };
    expect(data.uri).toMatch(/^otpauth:\/\/totp\//);
    expect(data.uri).toContain(`secret=${data.secret}`);

    const wrong = await api.request("/staff/totp/confirm", {
      method: "POST",
      token,
      json: { code: "000000", password: "staff-password" },
    });
    expect(wrong.status).toBe(400);
    const confirmed = await api.request("/staff/totp/confirm", {
      method: "POST",
      token,
      json: { code: await codeFor(api, admin.id), password: "staff-password" },
    });
    expect(confirmed.status).toBe(200);
    const codes = ((await confirmed.json()) as { data: { recovery_codes: string[] } }).data
      .recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await api.request("/staff/accounts", { token })).status).toBe(200);
  });

  it("asks for the code at sign-in, refuses a wrong one and a replayed one, and takes a recovery code once", async () => {
    const bursar = await createStaff(api, { roles: ["bursar", "registry"], totp: true });
    const first = await login({ email: bursar.email, password: "staff-password" });
    expect(await stageOf(first.clone())).toBe("code");
    const token = ((await first.json()) as { data: { tokens: { access: string } } }).data.tokens
      .access;
    expect((await api.request("/staff/audit", { token })).status).toBe(403);
    expect(
      (await api.request("/staff/login/code", { method: "POST", token, json: { code: "12345" } }))
        .status,
    ).toBe(400);
    const code = await codeFor(api, bursar.id);
    expect(
      (await api.request("/staff/login/code", { method: "POST", token, json: { code } })).status,
    ).toBe(200);
    expect((await api.request("/staff/audit", { token })).status).toBe(200);

    const again = await login({ email: bursar.email, password: "staff-password" });
    const second = ((await again.json()) as { data: { tokens: { access: string } } }).data.tokens
      .access;
    const replay = await api.request("/staff/login/code", {
      method: "POST",
      token: second,
      json: { code },
    });
    expect(replay.status).toBe(400);

    const recovery = "aaaa-bbbb-cccc";
    await api.db
      .update(staff)
      .set({ recoveryCodeHashes: [hashRecoveryCode(recovery)] })
      .where(eq(staff.id, bursar.id));
    expect(
      (
        await api.request("/staff/login/code", {
          method: "POST",
          token: second,
          json: { code: "AAAA BBBB CCCC" },
        })
      ).status,
    ).toBe(200);
    const third = (
      (await (await login({ email: bursar.email, password: "staff-password" })).json()) as {
        data: { tokens: { access: string } };
      }
    ).data.tokens.access;
    expect(
      (
        await api.request("/staff/login/code", {
          method: "POST",
          token: third,
          json: { code: recovery },
        })
      ).status,
    ).toBe(400);
  });
});

describe("replacing an authenticator", () => {
  const ALREADY_ENROLLED =
    "Your account already has an authenticator app. To use a new phone, ask an administrator to reset your authenticator; you then set up the new phone at your next sign-in.";
  const totpOf = async (id: number) =>
    (
      await api.db
        .select({
          secret: staff.totpSecret,
          pending: staff.totpPendingSecret,
          recovery: staff.recoveryCodeHashes,
        })
        .from(staff)
        .where(eq(staff.id, id))
    )[0]!;

  it("is refused to a signed-in member who has one, even with a set-up already started; an admin's reset opens it again", async () => {
    const bursar = await createStaff(api, { roles: ["bursar"], totp: true });
    const token = await staffSignIn(api, bursar);
    // A set-up started before this refusal existed, by the member or by whoever holds the session.
    const intruder = newTotpSecret();
    await api.db.update(staff).set({ totpPendingSecret: intruder }).where(eq(staff.id, bursar.id));
    const before = await totpOf(bursar.id);

    const start = await api.request("/staff/totp/start", { method: "POST", token });
    const confirm = await api.request("/staff/totp/confirm", {
      method: "POST",
      token,
      json: { code: currentCode(intruder, api.clock.now()), password: "staff-password" },
    });

    expect([start.status, confirm.status]).toEqual([409, 409]);
    expect((await start.json()).error.message).toBe(ALREADY_ENROLLED);
    expect((await confirm.json()).error.message).toBe(ALREADY_ENROLLED);
    expect(await totpOf(bursar.id)).toEqual(before);
    expect((await api.request("/staff/me", { token })).status).toBe(200);

    const admin = await createStaff(api, { roles: ["admin"], totp: true });
    const reset = await api.request(`/staff/accounts/${bursar.id}/totp-reset`, {
      method: "POST",
      token: await staffSignIn(api, admin),
    });
    expect(reset.status).toBe(200);
    expect((await reset.json()).message).toBe(
      `Authenticator reset: ${bursar.name} is signed out and must set up an authenticator app again at the next sign-in.`,
    );
    // Signed out everywhere, as the answer says.
    expect((await api.request("/staff/me", { token })).status).toBe(401);
    const afterReset = await login({ email: bursar.email, password: "staff-password" });
    expect(await stageOf(afterReset.clone())).toBe("enrol");
    const enrolling = ((await afterReset.json()) as { data: { tokens: { access: string } } }).data
      .tokens.access;
    expect(
      (await api.request("/staff/totp/start", { method: "POST", token: enrolling })).status,
    ).toBe(200);
    const confirmed = await api.request("/staff/totp/confirm", {
      method: "POST",
      token: enrolling,
      json: { code: await codeFor(api, bursar.id), password: "staff-password" },
    });
    expect(confirmed.status).toBe(200);
  });

  it("leaves a first set-up open to a member whose role does not require one, once", async () => {
    const registry = await createStaff(api, { roles: ["registry"] });
    const token = await staffSignIn(api, registry);
    expect((await api.request("/staff/totp/start", { method: "POST", token })).status).toBe(200);
    const confirmed = await api.request("/staff/totp/confirm", {
      method: "POST",
      token,
      json: { code: await codeFor(api, registry.id), password: "staff-password" },
    });
    expect(confirmed.status).toBe(200);
    expect((await (await api.request("/staff/me", { token })).json()).data.totp_enrolled).toBe(
      true,
    );

    const again = await api.request("/staff/totp/start", { method: "POST", token });
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toBe(ALREADY_ENROLLED);
  });
});

describe("POST /staff/password/set", () => {
  const LINK_NOT_VALID =
    "This link is not valid: it may have been used already or have expired. Ask an administrator for a new one.";
  const setPassword = (token: string, password: string) =>
    api.request("/staff/password/set", { method: "POST", json: { token, password } });
  const linkFor = async (member: typeof staff.$inferSelect) =>
    (await issueStaffPasswordToken(api.db, member, api.clock.now()))!;

  // Each case answers one bad link: made up, spent, expired, or of a deactivated account.
  it.each<[string, () => Promise<string>]>([
    ["a made-up link", async () => randomBytes(32).toString("base64url")],
    [
      "a link already used",
      async () => {
        const token = await linkFor(await createStaff(api, { roles: ["support"] }));
        expect((await setPassword(token, "the-first-use")).status).toBe(200);
        return token;
      },
    ],
    [
      "an expired link",
      async () => {
        const token = await linkFor(await createStaff(api, { roles: ["support"] }));
        api.clock.advance((INVITE_LINK_HOURS * 60 + 1) * 60_000);
        return token;
      },
    ],
    [
      "the link of a deactivated account",
      async () => {
        const member = await createStaff(api, { roles: ["support"] });
        const token = await linkFor(member);
        await api.db.update(staff).set({ active: false }).where(eq(staff.id, member.id));
        return token;
      },
    ],
  ])("refuses %s without hashing the password", async (_case, badLink) => {
    const token = await badLink();
    const hashing = vi.spyOn(passwords, "hashPassword");
    const answer = await setPassword(token, "a-long-password");
    expect(answer.status).toBe(400);
    expect((await answer.json()).error.message).toBe(LINK_NOT_VALID);
    expect(hashing).not.toHaveBeenCalled();
  });

  it("sets the password from a live link, and of two uses at once exactly one succeeds", async () => {
    const member = await createStaff(api, { roles: ["support"] });
    const token = await linkFor(member);
    const answers = await Promise.all([
      setPassword(token, "first-new-password"),
      setPassword(token, "second-new-password"),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    const winner = answers[0]!.status === 200 ? "first-new-password" : "second-new-password";
    await expect(staffSignIn(api, member, winner)).resolves.toBeTruthy();
  });
});

describe("staff and student sessions stay apart", () => {
  it("refuses a student's session on staff endpoints with 403, and a staff session on student endpoints with 401", async () => {
    const student = await api.createStudent();
    const studentToken = await api.signIn(student.phone);
    const member = await createStaff(api, { roles: ["registry", "admin"], totp: true });
    const staffToken = await staffSignIn(api, member);
    const asStudent = await api.request("/staff/me", { token: studentToken });
    expect(asStudent.status).toBe(403);
    expect((await asStudent.json()).error.message).toContain("for college staff");
    expect(
      (await api.request(`/student/profile/${student.id}`, { token: staffToken })).status,
    ).toBe(401);
    expect((await api.request("/staff/me", { token: staffToken })).status).toBe(200);
  });

  it(`ends a staff session after ${STAFF_SESSION_LIMITS.idleMinutes} idle minutes and at sign-out`, async () => {
    const member = await createStaff(api, { roles: ["support"] });
    const token = await staffSignIn(api, member);
    api.clock.advance((STAFF_SESSION_LIMITS.idleMinutes + 1) * 60_000);
    expect((await api.request("/staff/me", { token })).status).toBe(401);
    const fresh = await staffSignIn(api, member);
    expect((await api.request("/staff/logout", { method: "POST", token: fresh })).status).toBe(200);
    expect((await api.request("/staff/me", { token: fresh })).status).toBe(401);
  });
});
