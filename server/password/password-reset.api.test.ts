import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { endMailBackOff, mailJobsTo } from "../testing/mail-jobs.test-kit.ts";
import { startTestSmtpServer, type TestSmtpServer } from "../mail/smtp-server.test-kit.ts";
import { createSmtpMailer, type Mailer } from "../mail/mailer.ts";
import { passwordResetTokens, students } from "../db/schema.ts";
import { encodeUid } from "./uidb64.ts";

let api: ApiHarness;
let smtp: TestSmtpServer;
let mailer: Mailer;
let clients = 0;

const LINK = /http:\/\/localhost:4321\/password\/reset\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)/;
const NOT_VALID =
  "This password reset link is not valid: it may have been used already or have expired. Ask for a new one on the Forgot Password page.";

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  mailer = createSmtpMailer({ url: smtp.url, from: "Portal <no-reply@college.test>" });
  // Tests swap `mailer` to make the mail server hang or fail. The link is queued after the
  // answer, so a polling worker (as in the portal) sends it rather than deliverMail().
  api = await createApiHarness({
    mailer: { send: (message) => mailer.send(message), describe: () => "switchable" },
  });
  await api.jobs.work({ pollingIntervalSeconds: 0.5 });
  await api.createStudent({ email: "target@example.com" });
});
afterAll(async () => {
  await api.close();
  await smtp.close();
});

/** A client address of its own for each call, unless a test is about the per-client limit. */
const nextClient = () => `198.51.100.${++clients}`;

const requestReset = (json: unknown, clientAddress = nextClient()) =>
  api.request("/password/request-reset-email/", { method: "POST", json, clientAddress });

const complete = (json: unknown) =>
  api.request("/password/password-reset-complete", { method: "PATCH", json });

/** Asks for a link for `email` and reads it out of the mail the SMTP server receives. */
async function mailedLink(email: string) {
  const before = smtp.messages.length;
  const response = await requestReset({
    email,
    redirect_url: "http://localhost:4321/password/reset",
  });
  expect(response.status).toBe(200);
  const mail = await smtp.waitForMessage(
    (m) => m.to.includes(email) && smtp.messages.indexOf(m) >= before,
    10_000,
  );
  const [link, uidb64, token] = LINK.exec(mail.text) ?? [];
  if (!link || !uidb64 || !token) throw new Error(`no reset link in: ${mail.text}`);
  return { link, uidb64, token, mail };
}

async function storedHash(id: number) {
  const [row] = await api.db.select().from(students).where(eq(students.id, id));
  return row!.passwordHash;
}

async function canSignIn(phone: string, password: string) {
  const response = await api.request("/student/uniben/login", {
    method: "POST",
    json: { username: phone, password },
    clientAddress: nextClient(),
  });
  return response.status === 200;
}

describe("POST /password/request-reset-email/", () => {
  it("mails a single link to our own reset page, and answers the same for an unknown e-mail", async () => {
    const student = await api.createStudent({
      email: "amina.yusuf@example.com",
      othername: "Amina",
    });
    const known = await requestReset({ email: "Amina.Yusuf@Example.com " });
    const unknown = await requestReset({ email: "nobody.here@example.com" });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    const body = await known.json();
    expect(await unknown.json()).toEqual(body);
    expect(body.status).toBe("success");

    const mail = await smtp.waitForMessage((m) => m.to.includes("amina.yusuf@example.com"), 10_000);
    expect(mail.subject).toBe("Reset your student portal password");
    expect(mail.text).toContain("Dear Amina,");
    expect(mail.text).toContain("The link works once, for 30 minutes.");
    const [, uidb64, token] = LINK.exec(mail.text)!;
    expect(uidb64).toBe(encodeUid(student.id));
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only a hash is stored, never the token that travels in the mail.
    const rows = await api.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.studentId, student.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toContain(token!);
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(30 * 60_000);
    expect(smtp.messages.some((m) => m.to.includes("nobody.here@example.com"))).toBe(false);
    expect(await mailJobsTo(api.db, "nobody.here@example.com")).toEqual([]);
  });

  it("answers at once even when the mail server hangs", async () => {
    await api.createStudent({ email: "slow.mail@example.com" });
    let called: () => void = () => {};
    let release: () => void = () => {};
    const sending = new Promise<void>((resolve) => (called = resolve));
    mailer = {
      send: () => {
        called();
        return new Promise<void>((resolve) => (release = resolve));
      },
      describe: () => "hanging",
    };
    try {
      const started = performance.now();
      const response = await requestReset({ email: "slow.mail@example.com" });
      expect(response.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(2_000);
      // The worker took the queued link to the hanging server, after the answer.
      await sending;
    } finally {
      release();
      mailer = createSmtpMailer({ url: smtp.url, from: "Portal <no-reply@college.test>" });
    }
  });

  it("keeps the link queued while the mail server is down and mails it on a later try", async () => {
    await api.createStudent({ email: "outage@example.com" });
    mailer = {
      send: async () => Promise.reject(new Error("SMTP 421 service not available")),
      describe: () => "down",
    };
    try {
      const response = await requestReset({ email: "outage@example.com" });
      expect(response.status).toBe(200);
      await vi.waitFor(
        async () =>
          expect(await mailJobsTo(api.db, "outage@example.com")).toMatchObject([
            { state: "retry", waits: true },
          ]),
        { timeout: 10_000, interval: 100 },
      );
      expect(
        api.logger.lines.some(
          (line) =>
            line.includes("mail not sent; will retry") &&
            line.includes("SMTP 421 service not available"),
        ),
      ).toBe(true);
    } finally {
      mailer = createSmtpMailer({ url: smtp.url, from: "Portal <no-reply@college.test>" });
    }
    await endMailBackOff(api.db);
    const mail = await smtp.waitForMessage((m) => m.to.includes("outage@example.com"), 10_000);
    const [, uidb64, token] = LINK.exec(mail.text)!;
    expect((await complete({ uidb64, token, password: "after-the-outage" })).status).toBe(200);
  });

  it.each([
    ["another site", "https://evil.example/password/reset"],
    ["our host on another port", "http://localhost:8080/password/reset"],
    ["our host over another scheme", "https://localhost:4321/password/reset"],
    ["a look-alike host", "http://localhost:4321.evil.example/"],
    ["a javascript: address", "javascript:alert(1)"],
    ["a relative path", "/password/reset"],
  ])("refuses a redirect_url pointing at %s, sending nothing", async (_case, redirect_url) => {
    const before = smtp.messages.length;
    const queued = (await mailJobsTo(api.db, "target@example.com")).length;
    const response = await requestReset({ email: "target@example.com", redirect_url });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.message).toBe(
      "The reset link can only lead to this portal; redirect_url must start with its address.",
    );
    expect(body.error.fields).toHaveProperty("redirect_url");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await mailJobsTo(api.db, "target@example.com")).toHaveLength(queued);
    expect(smtp.messages.length).toBe(before);
  });

  it.each([
    ["no e-mail", {}, "Enter your e-mail address."],
    ["a blank e-mail", { email: "  " }, "Enter your e-mail address."],
    [
      "a malformed e-mail",
      { email: "amina@" },
      "Enter a valid e-mail address, e.g. name@example.com.",
    ],
    ["an e-mail that is not text", { email: ["a@b.co"] }, "Enter your e-mail address."],
  ])("refuses %s with a 400", async (_case, json, message) => {
    const response = await requestReset(json);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(message);
  });

  it("allows 5 requests an hour per e-mail, known or not, then answers 429", async () => {
    await api.createStudent({ email: "often@example.com" });
    for (const email of ["often@example.com", "never-registered@example.com"]) {
      for (let attempt = 0; attempt < 5; attempt++) {
        expect((await requestReset({ email })).status).toBe(200);
      }
      const blocked = await requestReset({ email: email.toUpperCase() });
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await blocked.json()).error.message).toBe(
        "Too many password reset requests. Wait 60 minutes and try again.",
      );
    }
    api.clock.advance(61 * 60_000);
    expect((await requestReset({ email: "often@example.com" })).status).toBe(200);
  });

  it("holds the per-e-mail limit against a burst of parallel requests", async () => {
    const answers = await Promise.all(
      Array.from({ length: 15 }, () => requestReset({ email: "burst@example.com" })),
    );
    const statuses = answers.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(10).fill(429)]);
  });

  it("allows 20 requests an hour per client, whatever the e-mails", async () => {
    const client = "192.0.2.50";
    for (let attempt = 0; attempt < 20; attempt++) {
      expect((await requestReset({ email: `spray-${attempt}@example.com` }, client)).status).toBe(
        200,
      );
    }
    expect((await requestReset({ email: "spray-x@example.com" }, client)).status).toBe(429);
    expect((await requestReset({ email: "spray-x@example.com" }, "192.0.2.51")).status).toBe(200);
  });
});

describe("PATCH /password/password-reset-complete", () => {
  it("sets the new password, spends the link and signs the student out everywhere", async () => {
    const student = await api.createStudent({
      email: "chidi.obi@example.com",
      password: "old-password",
    });
    const session = await api.signIn(student.phone, "old-password");
    const { uidb64, token } = await mailedLink("chidi.obi@example.com");
    api.clock.advance(29 * 60_000);

    const response = await complete({
      uidb64,
      token,
      password: "new-password-9",
      confirm_password: "new-password-9",
    });
    expect(response.status).toBe(200);
    expect((await response.json()).message).toBe(
      "Your password has been changed. Sign in with your new password.",
    );

    expect(await canSignIn(student.phone, "new-password-9")).toBe(true);
    expect(await canSignIn(student.phone, "old-password")).toBe(false);
    expect((await api.request("/student/me", { token: session })).status).toBe(401);
    const [row] = await api.db.select().from(students).where(eq(students.id, student.id));
    expect(row!.passwordChangedAt).toEqual(api.clock.now());
  });

  it("refuses a link the second time, changing nothing", async () => {
    const student = await api.createStudent({ email: "reuse@example.com" });
    const { uidb64, token } = await mailedLink("reuse@example.com");
    expect((await complete({ uidb64, token, password: "first-new-pass" })).status).toBe(200);
    const hash = await storedHash(student.id);

    const again = await complete({ uidb64, token, password: "second-new-pass" });
    expect(again.status).toBe(400);
    expect((await again.json()).error.message).toBe(NOT_VALID);
    expect(await storedHash(student.id)).toBe(hash);
  });

  it("lets only one of two simultaneous uses of a link succeed", async () => {
    const student = await api.createStudent({ email: "twice@example.com" });
    const { uidb64, token } = await mailedLink("twice@example.com");
    const answers = await Promise.all([
      complete({ uidb64, token, password: "racer-one-pass" }),
      complete({ uidb64, token, password: "racer-two-pass" }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    const winner = answers[0]!.status === 200 ? "racer-one-pass" : "racer-two-pass";
    expect(await canSignIn(student.phone, winner)).toBe(true);
  });

  it("refuses a link after 30 minutes, changing nothing", async () => {
    const student = await api.createStudent({ email: "late@example.com" });
    const { uidb64, token } = await mailedLink("late@example.com");
    const hash = await storedHash(student.id);
    api.clock.advance(30 * 60_000);
    const response = await complete({ uidb64, token, password: "too-late-pass" });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(NOT_VALID);
    expect(await storedHash(student.id)).toBe(hash);
  });

  it("refuses every earlier link once the password has changed", async () => {
    const student = await api.createStudent({ email: "two-links@example.com" });
    const first = await mailedLink("two-links@example.com");
    const second = await mailedLink("two-links@example.com");
    expect((await complete({ ...second, password: "from-second-link" })).status).toBe(200);
    expect((await complete({ ...first, password: "from-first-link" })).status).toBe(400);

    // A change made any other way (e.g. by the registry) kills outstanding links too.
    const third = await mailedLink("two-links@example.com");
    await api.db
      .update(students)
      .set({ passwordHash: "scrypt$changed$elsewhere" })
      .where(eq(students.id, student.id));
    expect((await complete({ ...third, password: "from-third-link" })).status).toBe(400);
    expect(await storedHash(student.id)).toBe("scrypt$changed$elsewhere");
  });

  it("refuses a password shorter than 8 characters and keeps the link usable", async () => {
    const student = await api.createStudent({ email: "short@example.com" });
    const { uidb64, token } = await mailedLink("short@example.com");
    const hash = await storedHash(student.id);
    const response = await complete({ uidb64, token, password: "seven77" });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(
      "Use at least 8 characters for your new password.",
    );
    expect(await storedHash(student.id)).toBe(hash);
    expect((await complete({ uidb64, token, password: "eight888" })).status).toBe(200);
  });

  it("refuses a confirmation that differs with 'Password do not match'", async () => {
    const student = await api.createStudent({ email: "differ@example.com" });
    const { uidb64, token } = await mailedLink("differ@example.com");
    const hash = await storedHash(student.id);
    const response = await complete({
      uidb64,
      token,
      password: "new-password-1",
      confirm_password: "new-password-2",
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe("Password do not match");
    expect(await storedHash(student.id)).toBe(hash);
  });

  it("refuses unknown, malformed and mismatched link parameters alike", async () => {
    const owner = await api.createStudent({ email: "owner@example.com" });
    const other = await api.createStudent({ email: "other@example.com" });
    const { uidb64, token } = await mailedLink("owner@example.com");
    const hashes = [await storedHash(owner.id), await storedHash(other.id)];
    for (const link of [
      { uidb64: encodeUid(999_999), token },
      { uidb64: encodeUid(other.id), token },
      { uidb64: "not*base64", token },
      { uidb64, token: randomBytes(32).toString("base64url") },
      { uidb64, token: "short" },
    ]) {
      const response = await complete({ ...link, password: "attacker-pass" });
      expect(response.status).toBe(400);
      expect((await response.json()).error.message).toBe(NOT_VALID);
    }
    expect([await storedHash(owner.id), await storedHash(other.id)]).toEqual(hashes);
  });

  it.each([
    ["no fields", {}, "Enter a new password."],
    [
      "no token",
      { uidb64: "MQ", password: "long-enough" },
      "Click on the verification link sent to your mail",
    ],
    [
      "no uidb64",
      { token: "t", password: "long-enough" },
      "Click on the verification link sent to your mail",
    ],
    [
      "an overlong password",
      { uidb64: "MQ", token: "t", password: "p".repeat(201) },
      "That password is too long; use at most 200 characters.",
    ],
  ])("refuses %s with a 400", async (_case, json, message) => {
    const response = await complete(json);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(message);
  });
});

describe("a reset after too many failed sign-ins", () => {
  it("lets the student sign in with the new password at once, from where they failed", async () => {
    const student = await api.createStudent({ email: "locked.out@example.com" });
    const signIn = (password: string) =>
      api.request("/student/uniben/login", {
        method: "POST",
        json: { username: student.phone, password },
        clientAddress: "203.0.113.77",
      });
    let last = await signIn("guess");
    while (last.status === 401) last = await signIn("guess");
    expect(last.status).toBe(429);

    const { uidb64, token } = await mailedLink("locked.out@example.com");
    expect((await complete({ uidb64, token, password: "a-fresh-start-1" })).status).toBe(200);
    expect((await signIn("a-fresh-start-1")).status).toBe(200);
  });
});
