import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, students } from "../../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../../staff/staff.test-kit.ts";
import { ACTIVATION_MAIL_SUBJECT } from "./activation.ts";
import { ensureModes } from "../../structure/modes.ts";
import { importFile, latestStudentLink, postImport, studentRow } from "./students.test-kit.ts";

let api: ApiHarness;
let registry: Awaited<ReturnType<typeof createStaff>>;
let token: string;
/** Students 1–30 imported (no password yet); ids by matric number. */
const imported = new Map<string, number>();

beforeAll(async () => {
  api = await createApiHarness();
  registry = await createStaff(api, { roles: ["registry"] });
  token = await staffSignIn(api, registry);
  const answer = await postImport(
    api,
    token,
    importFile(Array.from({ length: 30 }, (_, n) => studentRow(n + 1))),
  );
  if (answer.status !== 200) throw new Error(`import failed: ${answer.status}`);
  const named = await postImport(
    api,
    token,
    importFile([
      studentRow(31, { surname: "Adébáyọ̀", othername: "Ọlámídé" }),
      studentRow(32, { surname: "O'Neil", othername: "Chukwuemeka" }),
    ]),
  );
  if (named.status !== 200) throw new Error(`import failed: ${named.status}`);
  await ensureModes(api.db, "study", ["Part-Time"]);
  for (const row of await api.db.select().from(students)) imported.set(row.matricNo ?? "", row.id);
});
afterAll(() => api.close());

const asRegistry = (path: string, init: { method?: string; json?: unknown } = {}) =>
  api.request(path, { ...init, token });
const idOf = (n: number) => imported.get(`COE/2024/BIO/${String(n).padStart(4, "0")}`)!;
const auditOf = (id: number, action: string) =>
  api.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, String(id)), eq(auditLog.action, action)));

describe("finding a student", () => {
  it.each([
    ["part of a matric number, any case", "coe/2024/bio/0007", ["COE/2024/BIO/0007"]],
    ["a phone number as written", "+234 813 100 0012", ["COE/2024/BIO/0012"]],
    ["other names then surname", "Garba Adaeze Okafor", ["COE/2024/BIO/0006"]],
    [
      "first name and surname, the middle name left out",
      "Garba Okafor",
      ["COE/2024/BIO/0006", "COE/2024/BIO/0016", "COE/2024/BIO/0026"],
    ],
    ["the names in any order", "bukola okafor garba", ["COE/2024/BIO/0016"]],
    ["a wildcard typed as text", "%", []],
    ["a name typed without its accents", "Adebayo", ["COE/2024/BIO/0031"]],
    ["a name with its accents, other names first", "Ọlámídé Adébáyọ̀", ["COE/2024/BIO/0031"]],
    ["a name typed without its apostrophe", "oneil", ["COE/2024/BIO/0032"]],
    ["a name typed with a different apostrophe", "O’NEIL Chukwuemeka", ["COE/2024/BIO/0032"]],
  ])("by %s", async (_case, q, matrics) => {
    const answer = await asRegistry(`/staff/students?${new URLSearchParams({ q })}`);
    expect(answer.status).toBe(200);
    expect(
      (await answer.json()).data.map((student: { matric_no: string }) => student.matric_no),
    ).toEqual(matrics);
  });

  it("pages the list on the server, 25 at a time", async () => {
    const second = await (await asRegistry("/staff/students?q=okafor&page=2")).json();
    expect(second).toMatchObject({ total: 30, page: 2, page_size: 25 });
    expect(second.data).toHaveLength(5);
    expect(second.data[0]).toMatchObject({
      activated: false,
      biodata_locked: false,
      programme: "NCE Biology/Chemistry",
    });
    expect((await asRegistry("/staff/students?page=0")).status).toBe(400);
  });

  it("shows one record, and says when there is none", async () => {
    const answer = await asRegistry(`/staff/students/${idOf(3)}`);
    expect((await answer.json()).data).toMatchObject({
      matric_no: "COE/2024/BIO/0003",
      application_no: "APP/2024/0003",
      failed_sign_ins: 0,
      sign_in_locked: false,
    });
    expect((await asRegistry("/staff/students/99999")).status).toBe(404);
    expect((await asRegistry("/staff/students/abc")).status).toBe(400);
  });
});

describe("correcting a record", () => {
  it("saves the changed fields and audits them before and after", async () => {
    const id = idOf(4);
    const answer = await asRegistry(`/staff/students/${id}`, {
      method: "PATCH",
      json: { level: 200, phone: "0803 555 0101", email: "New.Mail@Students.Example" },
    });
    expect(answer.status).toBe(200);
    expect((await answer.json()).data).toMatchObject({
      level: 200,
      phone: "08035550101",
      email: "new.mail@students.example",
    });
    const [entry] = await auditOf(id, "student.update");
    expect(entry).toMatchObject({
      before: { level: 100, phone: "08131000004", email: "student.4@students.example" },
      after: { level: 200, phone: "08035550101", email: "new.mail@students.example" },
    });
  });

  it("stores a study mode as the registry's list spells it, and a removed e-mail as none", async () => {
    const id = idOf(6);
    const answer = await asRegistry(`/staff/students/${id}`, {
      method: "PATCH",
      json: { study_mode: "part time", email: "" },
    });
    expect(answer.status).toBe(200);
    expect((await answer.json()).data).toMatchObject({ study_mode: "Part-Time", email: null });
    expect((await auditOf(id, "student.update"))[0]).toMatchObject({
      before: { study_mode: "Full Time" },
      after: { study_mode: "Part-Time", email: null },
    });
  });

  it("saves nothing and audits nothing when the values are the ones on record", async () => {
    const answer = await asRegistry(`/staff/students/${idOf(5)}`, {
      method: "PATCH",
      json: { level: 100 },
    });
    expect((await answer.json()).message).toContain("Nothing changed");
    expect(await auditOf(idOf(5), "student.update")).toEqual([]);
  });

  it.each([
    [
      "another student's phone",
      { phone: "08131000006" },
      409,
      "That phone number is already on the record of another student (COE/2024/BIO/0006).",
    ],
    [
      "another student's matric number",
      { matric_no: "coe/2024/bio/0006" },
      409,
      "That matric number is already on the record",
    ],
    ["an unknown programme", { programme_id: 9999 }, 400, "There is no such programme"],
    ["a level outside 100–500", { level: 50 }, 400, "The level must be 100, 200, 300, 400 or 500."],
    ["a malformed session", { entry_session: "2024-2025" }, 400, "two consecutive years"],
    [
      "a study mode not on the list",
      { study_mode: "Sandwich" },
      400,
      'There is no study mode "Sandwich". The registry\'s study modes are: "Full Time", "Part-Time".',
    ],
    [
      "an entry mode not on the list",
      { entry_mode: "Transfer" },
      400,
      'There is no entry mode "Transfer". The registry\'s entry modes are: "UTME".',
    ],
    ["nothing at all", {}, 400, "Nothing to change."],
  ])("refuses %s", async (_case, json, status, message) => {
    const answer = await asRegistry(`/staff/students/${idOf(5)}`, { method: "PATCH", json });
    expect(answer.status).toBe(status);
    expect((await answer.json()).error.message).toContain(message);
  });
});

describe("locking the biodata", () => {
  it("locks with a reason the student sees, refuses their edits, and unlocks", async () => {
    const student = await api.createStudent();
    const studentToken = await api.signIn(student.phone);
    const lock = await asRegistry(`/staff/students/${student.id}/lock`, {
      method: "POST",
      json: { locked: true, reason: "Checked at screening" },
    });
    expect(lock.status).toBe(200);
    const me = await (await api.request("/student/me", { token: studentToken })).json();
    expect(me.data).toMatchObject({
      biodata_locked: true,
      biodata_lock_reason: "Checked at screening",
    });
    const edit = new FormData();
    edit.set("religion", "Islam");
    expect(
      (
        await api.request(`/student/biodata-update/${student.id}`, {
          method: "PATCH",
          body: edit,
          token: studentToken,
        })
      ).status,
    ).toBe(403);

    await asRegistry(`/staff/students/${student.id}/lock`, {
      method: "POST",
      json: { locked: false },
    });
    const [row] = await api.db.select().from(students).where(eq(students.id, student.id));
    expect(row).toMatchObject({ biodataLocked: false, biodataLockReason: null });
    expect((await auditOf(student.id, "student.biodata_lock"))[0]).toMatchObject({
      after: { biodata_locked: true, biodata_lock_reason: "Checked at screening" },
    });
    expect((await auditOf(student.id, "student.biodata_unlock"))[0]).toMatchObject({
      before: { biodata_locked: true },
      after: { biodata_locked: false, biodata_lock_reason: null },
    });
  });

  it("asks for a reason when locking", async () => {
    const answer = await asRegistry(`/staff/students/${idOf(8)}/lock`, {
      method: "POST",
      json: { locked: true, reason: " " },
    });
    expect(answer.status).toBe(400);
    expect((await answer.json()).error.message).toContain("Give the reason the student will see");
  });
});

describe("helping a student sign in", () => {
  it("an imported student cannot sign in with any password, and gets the answer a wrong password gets", async () => {
    const attempt = await api.request("/student/uniben/login", {
      method: "POST",
      json: { username: "08131000009", password: "unusable" },
    });
    const wrong = await api.request("/student/uniben/login", {
      method: "POST",
      json: { username: "08131000009", password: "wrong-password" },
    });
    expect([attempt.status, wrong.status]).toEqual([401, 401]);
    expect(await attempt.text()).toBe(await wrong.text());
  });

  it("the activation link lasts days, sets a first password, and the student signs in", async () => {
    const id = idOf(10);
    const answer = await asRegistry(`/staff/students/${id}/activation-link`, { method: "POST" });
    expect(answer.status).toBe(200);
    expect((await answer.json()).message).toBe(
      "An activation link is on its way to student.10@students.example. It works for 72 hours; any earlier link has stopped working.",
    );
    const link = await latestStudentLink(api, "student.10@students.example");
    expect(link?.subject).toBe(ACTIVATION_MAIL_SUBJECT);
    // Two days on, long past a reset link's 30 minutes (and the officer's session: sign in again).
    api.clock.advance(48 * 3_600_000);
    token = await staffSignIn(api, registry);
    const set = await api.request("/password/password-reset-complete", {
      method: "PATCH",
      json: { uidb64: link!.uidb64, token: link!.token, password: "Ibadan-Rains-2025" },
    });
    expect(set.status).toBe(200);
    await api.signIn("08131000010", "Ibadan-Rains-2025");
    expect((await auditOf(id, "student.activation_link"))[0]).toMatchObject({
      after: { email: "student.10@students.example" },
    });

    const again = await asRegistry(`/staff/students/${id}/activation-link`, { method: "POST" });
    expect(again.status).toBe(400);
    expect((await again.json()).error.message).toContain("already chosen a password");
  });

  it("shows when the last link went and where, and replaces a working link only once the officer confirms", async () => {
    const id = idOf(12);
    const record = async () => (await (await asRegistry(`/staff/students/${id}`)).json()).data;
    expect((await record()).last_activation_link).toBeNull();
    expect(
      (await asRegistry(`/staff/students/${id}/activation-link`, { method: "POST" })).status,
    ).toBe(200);
    const first = (await record()).last_activation_link;
    expect(first).toMatchObject({
      sent_to: "student.12@students.example",
      state: "live",
      sent_at: api.clock.now().toISOString(),
    });
    const firstLink = await latestStudentLink(api, "student.12@students.example");

    api.clock.advance(60_000);
    const unconfirmed = await asRegistry(`/staff/students/${id}/activation-link`, {
      method: "POST",
      json: {},
    });
    expect(unconfirmed.status).toBe(409);
    expect((await unconfirmed.json()).error.message).toMatch(
      /^An activation link sent at .* \(to student\.12@students\.example\) still works until .*\. A new link replaces it: the earlier one stops working/,
    );
    expect((await record()).last_activation_link).toEqual(first);
    expect(
      (await api.request("/password/reset-link-check", { method: "POST", json: firstLink })).status,
    ).toBe(200);

    const confirmed = await asRegistry(`/staff/students/${id}/activation-link`, {
      method: "POST",
      json: { replace_earlier: true },
    });
    expect(confirmed.status).toBe(200);
    expect((await record()).last_activation_link).toMatchObject({
      state: "live",
      sent_at: api.clock.now().toISOString(),
    });
    const dead = await api.request("/password/reset-link-check", {
      method: "POST",
      json: firstLink,
    });
    expect((await dead.json()).error.message).toContain(
      "the registry sent a newer activation link",
    );
    expect(await auditOf(id, "student.activation_link")).toHaveLength(2);
  });

  it("a student with no e-mail address: the link is shown to the officer, not mailed, and works", async () => {
    const answer = await postImport(api, token, importFile([studentRow(40, { email: "" })]));
    expect(answer.status).toBe(200);
    const [student] = await api.db
      .select()
      .from(students)
      .where(eq(students.matricNo, "COE/2024/BIO/0040"));
    expect(student!.email).toBeNull();
    const sent = await asRegistry(`/staff/students/${student!.id}/activation-link`, {
      method: "POST",
    });
    const body = await sent.json();
    expect(body.message).toContain(
      "has no e-mail address, so the link is shown here instead of mailed",
    );
    const [, uidb64, linkToken] = /\/password\/reset\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]{43})$/.exec(
      body.data.link,
    )!;
    expect(
      (await (await asRegistry(`/staff/students/${student!.id}`)).json()).data.last_activation_link,
    ).toMatchObject({ sent_to: null, state: "live" });
    expect((await auditOf(student!.id, "student.activation_link"))[0]).toMatchObject({
      after: { email: null, shown_on_screen: true },
    });
    const set = await api.request("/password/password-reset-complete", {
      method: "PATCH",
      json: { uidb64, token: linkToken, password: "Jos-Plateau-Cool-2025" },
    });
    expect(set.status).toBe(200);
    await api.signIn("08131000040", "Jos-Plateau-Cool-2025");
    expect(
      (await (await asRegistry(`/staff/students/${student!.id}`)).json()).data.last_activation_link,
    ).toMatchObject({ state: "used" });
  });

  it("an imported student can also start through Forgot password", async () => {
    await api.request("/password/request-reset-email/", {
      method: "POST",
      json: { email: "student.11@students.example" },
    });
    await expect.poll(() => latestStudentLink(api, "student.11@students.example")).not.toBeNull();
  });

  it("resets a sign-in lockout, with an audit row", async () => {
    const student = await api.createStudent();
    const guess = () =>
      api.request("/student/uniben/login", {
        method: "POST",
        json: { username: student.phone, password: "wrong" },
        clientAddress: "198.51.100.1",
      });
    // Decision 053: five failures from one network, then that network waits.
    for (let attempt = 0; attempt < 5; attempt += 1) await guess();
    expect((await guess()).status).toBe(429);
    expect((await (await asRegistry(`/staff/students/${student.id}`)).json()).data).toMatchObject({
      sign_in_locked: true,
    });

    const reset = await asRegistry(`/staff/students/${student.id}/sign-in-lockout`, {
      method: "DELETE",
    });
    expect((await reset.json()).message).toContain("the student can sign in again now");
    await api.signIn(student.phone);
    expect((await auditOf(student.id, "student.sign_in_lockout_reset"))[0]).toMatchObject({
      before: { failed_sign_ins: 5 },
      after: { failed_sign_ins: 0 },
    });
    const nothing = await asRegistry(`/staff/students/${student.id}/sign-in-lockout`, {
      method: "DELETE",
    });
    expect((await nothing.json()).message).toContain("nothing to reset");
  });
});
