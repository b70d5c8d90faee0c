import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passwordResetTokens, students } from "../db/schema.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";
import { issueActivationLink } from "../students/registry/activation.ts";
import { importFile, postImport, studentRow } from "../students/registry/students.test-kit.ts";
import { createBiodataHarness, type BiodataHarness } from "../students/biodata.test-kit.ts";
import { issueResetToken } from "./reset-tokens.ts";
import { encodeUid } from "./uidb64.ts";

// Decision 139: a reset or activation link works only while the address it was mailed to is
// still the student's, and an activation link replaces the ones before it.

let h: BiodataHarness;
let registry: Awaited<ReturnType<typeof createStaff>>;

beforeAll(async () => {
  h = await createBiodataHarness();
  registry = await createStaff(h.api, { roles: ["registry"] });
});
afterAll(() => h.api.close());

const NEW_PASSWORD = "Zaria-Harmattan-2025";

/** The registry's session, fresh each time: tests move the clock past its idle limit. */
const asRegistry = async (path: string, init: { method: string; json?: unknown }) =>
  h.api.request(path, { ...init, token: await staffSignIn(h.api, registry) });

/** The link in the newest password mail to `to` (once the queue has sent what is due). */
async function passwordLink(to: string) {
  const mail = (await h.sentMails()).findLast((message) => message.to === to);
  const match = /\/password\/reset\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]{43})/.exec(mail?.text ?? "");
  if (!match) throw new Error(`no password link mailed to ${to}`);
  return { uidb64: match[1]!, token: match[2]! };
}

const setPassword = (link: { uidb64: string; token: string }) =>
  h.api.request("/password/password-reset-complete", {
    method: "PATCH",
    json: { ...link, password: NEW_PASSWORD },
  });

/** What any link we never sent gets: a cancelled link must answer the same. */
async function unknownLinkAnswer(studentId: number) {
  const answer = await setPassword({
    uidb64: encodeUid(studentId),
    token: randomBytes(32).toString("base64url"),
  });
  return { status: answer.status, body: await answer.json() };
}

async function expectRefusedLikeAnyBadLink(
  studentId: number,
  link: { uidb64: string; token: string },
) {
  const answer = await setPassword(link);
  expect({ status: answer.status, body: await answer.json() }).toEqual(
    await unknownLinkAnswer(studentId),
  );
  expect(answer.status).toBe(400);
}

async function importStudents(rows: string[]) {
  const answer = await postImport(h.api, await staffSignIn(h.api, registry), importFile(rows));
  expect(answer.status).toBe(200);
}

async function importedStudent(n: number) {
  const matric = `COE/2024/BIO/${String(n).padStart(4, "0")}`;
  const [row] = await h.api.db.select().from(students).where(eq(students.matricNo, matric));
  return { ...row!, email: row!.email! };
}

const sendActivationLink = async (studentId: number, json?: { replace_earlier: boolean }) =>
  (await asRegistry(`/staff/students/${studentId}/activation-link`, { method: "POST", json }))
    .status;

describe("the registry corrects a mistyped e-mail", () => {
  it("the link sent to the mistyped address stops working; the one sent to the right address works", async () => {
    await importStudents([studentRow(101, { email: "amaka.obi@gmial.com" })]);
    const student = await importedStudent(101);
    expect(await sendActivationLink(student.id)).toBe(200);
    const toTheTypo = await passwordLink("amaka.obi@gmial.com");

    const corrected = await asRegistry(`/staff/students/${student.id}`, {
      method: "PATCH",
      json: { email: "amaka.obi@gmail.com" },
    });
    expect(corrected.status).toBe(200);
    expect(await sendActivationLink(student.id)).toBe(200);
    const toTheStudent = await passwordLink("amaka.obi@gmail.com");

    h.api.clock.advance(24 * 3_600_000);
    await expectRefusedLikeAnyBadLink(student.id, toTheTypo);
    expect((await setPassword(toTheStudent)).status).toBe(200);
    await expect(h.api.signIn(student.phone, NEW_PASSWORD)).resolves.toBeTruthy();
  });

  it("a correction that leaves the e-mail alone leaves the link working", async () => {
    await importStudents([studentRow(102)]);
    const student = await importedStudent(102);
    expect(await sendActivationLink(student.id)).toBe(200);
    const link = await passwordLink(student.email);

    const corrected = await asRegistry(`/staff/students/${student.id}`, {
      method: "PATCH",
      json: { level: 200, email: student.email },
    });
    expect(corrected.status).toBe(200);

    expect((await setPassword(link)).status).toBe(200);
  });

  it("a new activation link replaces the one sent before it", async () => {
    await importStudents([studentRow(103)]);
    const student = await importedStudent(103);
    expect(await sendActivationLink(student.id)).toBe(200);
    const first = await passwordLink(student.email);
    // Decision 156: a link still working is replaced only once the officer confirms.
    expect(await sendActivationLink(student.id)).toBe(409);
    expect(await sendActivationLink(student.id, { replace_earlier: true })).toBe(200);
    const second = await passwordLink(student.email);

    await expectRefusedLikeAnyBadLink(student.id, first);
    expect((await setPassword(second)).status).toBe(200);
  });

  it("sends no activation link to an address that was changed while it was being sent", async () => {
    await importStudents([studentRow(104)]);
    const readBeforeTheChange = await importedStudent(104);
    await h.api.db
      .update(students)
      .set({ email: "changed.meanwhile@example.com" })
      .where(eq(students.id, readBeforeTheChange.id));

    const sending = h.api.db.transaction((tx) =>
      issueActivationLink(h.api.deps, tx, readBeforeTheChange, false),
    );

    await expect(sending).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining("changed a moment ago"),
    });
    const tokens = await h.api.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.studentId, readBeforeTheChange.id));
    expect(tokens).toEqual([]);
    expect(
      await h.api.db.transaction((tx) =>
        issueResetToken(tx, readBeforeTheChange, h.api.clock.now()),
      ),
    ).toBeNull();
  });
});

describe("the registry imports a file that corrects an e-mail", () => {
  it("the links sent to the old address stop working; a row that keeps the address keeps its link", async () => {
    await importStudents([studentRow(111), studentRow(112)]);
    const [moved, stayed] = [await importedStudent(111), await importedStudent(112)];
    expect(await sendActivationLink(moved.id)).toBe(200);
    expect(await sendActivationLink(stayed.id)).toBe(200);
    const [toOldAddress, toKeptAddress] = [
      await passwordLink(moved.email),
      await passwordLink(stayed.email),
    ];

    await importStudents([
      studentRow(111, { email: "student.111@college.example" }),
      studentRow(112, { level: "200" }),
    ]);

    await expectRefusedLikeAnyBadLink(moved.id, toOldAddress);
    expect((await setPassword(toKeptAddress)).status).toBe(200);
    expect(await sendActivationLink(moved.id)).toBe(200);
    expect((await setPassword(await passwordLink("student.111@college.example"))).status).toBe(200);
  });
});

describe("a student confirms a new e-mail address", () => {
  const PASSWORD = { current_password: "demo1234" };

  const askForResetLink = async (email: string) => {
    const before = (await h.sentMails()).length;
    const answer = await h.api.request("/password/request-reset-email/", {
      method: "POST",
      json: { email },
    });
    expect(answer.status).toBe(200);
    // The link is queued just after the answer (decision 040).
    await expect.poll(async () => (await h.sentMails()).length).toBeGreaterThan(before);
    return passwordLink(email);
  };

  it("a reset link mailed to the old address stops working; one asked for at the new address works", async () => {
    const toOldAddress = await askForResetLink(h.me.email);
    const token = await h.api.signIn(h.me.phone);

    expect(
      (await h.sendBiodata(h.me.id, { email: "ngozi.eze@college.example", ...PASSWORD }, { token }))
        .status,
    ).toBe(200);
    expect(
      (await h.confirmLink(await h.mailedLink("ngozi.eze@college.example"), { token })).status,
    ).toBe(200);

    await expectRefusedLikeAnyBadLink(h.me.id, toOldAddress);
    expect((await setPassword(await askForResetLink("ngozi.eze@college.example"))).status).toBe(
      200,
    );
  });

  it("a new phone number alone leaves the reset link working", async () => {
    const other = h.other;
    const link = await askForResetLink(other.email);
    const token = await h.api.signIn(other.phone);

    expect(
      (await h.sendBiodata(other.id, { phone: "08037775555", ...PASSWORD }, { token })).status,
    ).toBe(200);
    expect((await h.confirmLink(await h.mailedLink(other.email), { token })).status).toBe(200);

    expect((await setPassword(link)).status).toBe(200);
  });
});
