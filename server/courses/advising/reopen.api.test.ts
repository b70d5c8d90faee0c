import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { academicSessions, auditLog, registrationApprovals } from "../../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../../testing/api-harness.test-kit.ts";
import { insertCatalogue } from "../seed.ts";
import { readOutbox } from "../../mail/outbox.ts";
import { createStaff, staffSignIn } from "../../staff/staff.test-kit.ts";
import { advisingTestKit, SESSION } from "./advising.test-kit.ts";

let api: ApiHarness;
let kit: ReturnType<typeof advisingTestKit>;
let adviser: Awaited<ReturnType<ReturnType<typeof advisingTestKit>["adviser"]>>;
let registry: { member: Awaited<ReturnType<typeof createStaff>>; token: string };

beforeAll(async () => {
  api = await createApiHarness();
  await insertCatalogue(api.db);
  kit = advisingTestKit(api);
  adviser = await kit.adviser([100]);
  const member = await createStaff(api, { roles: ["registry"] });
  registry = { member, token: await staffSignIn(api, member) };
});
afterAll(() => api.close());

const reopen = (token: string, studentId: number, reason: unknown, semester: unknown = 1) =>
  api.request(`/staff/registrations/${studentId}/reopen`, {
    method: "POST",
    token,
    json: { session: SESSION, semester, reason },
  });
const auditActions = async (studentId: number) =>
  (
    await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, `${studentId}:${SESSION}:1`))
  ).map((row) => row.action);
const approved = async (studentId: number) =>
  (
    await api.db
      .select()
      .from(registrationApprovals)
      .where(
        and(eq(registrationApprovals.studentId, studentId), eq(registrationApprovals.semester, 1)),
      )
  ).length === 1;
/** The test clock's day is 15 January 2025 in Lagos. */
const setWindow = (values: Partial<typeof academicSessions.$inferInsert>) =>
  api.db.update(academicSessions).set(values).where(eq(academicSessions.name, SESSION));

/** A student whose first semester the adviser has approved. */
async function approvedStudent() {
  const registered = await kit.student();
  expect((await kit.approve(adviser.token, registered.student.id, 1)).status).toBe(200);
  return registered;
}

describe("reopening an approved semester", () => {
  it("the registry reopens with a reason: the student can change it again, is told by e-mail and on the course page, and the audit keeps both", async () => {
    const { student, token } = await approvedStudent();
    const reason = "You registered BIO 111 twice over two levels; drop the carry-over.";
    const response = await reopen(registry.token, student.id, `  ${reason} `);
    expect(response.status).toBe(200);
    expect((await response.json()).message).toBe(
      `First Semester registration for 2024/2025 reopened: ${student.surname} ${student.othername} can change it again and has been told why by e-mail, by SMS and on the portal.`,
    );
    expect(await approved(student.id)).toBe(false);
    const view = await kit.studentView(token);
    expect(view.approvals).toEqual([]);
    expect(view.returns).toEqual([
      {
        semester: 1,
        returned_by: registry.member.name,
        returned_at: api.clock.now().toISOString(),
        note: reason,
      },
    ]);
    expect(await auditActions(student.id)).toEqual(["registration.approve", "registration.reopen"]);
    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "registration.reopen"));
    expect(entry).toMatchObject({
      staffId: registry.member.id,
      before: {
        status: "approved",
        approved_by: adviser.member.name,
        courses: ["BIO 111", "GSE 111"],
      },
      after: { status: "returned", reason },
    });

    await api.deliverMail();
    const mail = (await readOutbox(api.outboxDir)).find((message) => message.to === student.email);
    expect(mail?.subject).toBe(
      "Your First Semester course registration for 2024/2025 was reopened",
    );
    expect(mail?.text).toContain(reason);
    expect(mail?.text).toContain(
      `${registry.member.name} has reopened your approved First Semester`,
    );

    // The student changes it; the adviser sees it waiting again, marked as changed.
    const more = await kit.courses.register(token, {
      courses: await kit.courses.idsOf(token, ["BIO 112"]),
      registration_level: 100,
      session: SESSION,
    });
    expect(more.status).toBe(201);
    const waiting = await api.request("/staff/registrations", { token: adviser.token });
    const row = (await waiting.json()).data.find(
      (entry: { student_id: number }) => entry.student_id === student.id,
    );
    expect(row).toMatchObject({ status: "pending", changed_since_return: true });
  });

  it("the adviser reopens while registration is open; after it closes only the registry can", async () => {
    const first = await approvedStudent();
    const review = await kit.review(adviser.token, first.student.id);
    expect(review.body.data.reopen).toEqual({ allowed: true, refusal: null });
    expect(
      (
        await reopen(
          adviser.token,
          first.student.id,
          "Approved by mistake: the GSE course is wrong.",
        )
      ).status,
    ).toBe(200);

    const second = await approvedStudent();
    await setWindow({ registrationClosesOn: "2025-01-14" });
    try {
      const refusal =
        "Course registration for 2024/2025 closed on 14 January 2025; after that only the registry can reopen an approved semester.";
      expect((await kit.review(adviser.token, second.student.id)).body.data.reopen).toEqual({
        allowed: false,
        refusal,
      });
      const late = await reopen(
        adviser.token,
        second.student.id,
        "Approved by mistake: the GSE course is wrong.",
      );
      expect(late.status).toBe(409);
      expect((await late.json()).message).toBe(refusal);
      expect(await approved(second.student.id)).toBe(true);
      expect((await kit.review(registry.token, second.student.id)).body.data.reopen).toEqual({
        allowed: true,
        refusal: null,
      });
      expect(
        (await reopen(registry.token, second.student.id, "The senate allowed a late change."))
          .status,
      ).toBe(200);
    } finally {
      await setWindow({ registrationClosesOn: null });
    }
  });

  it("refuses a semester that is not approved, a missing reason, a student outside the adviser's scope and an unknown student, changing nothing", async () => {
    const { student } = await kit.student();
    const notApproved = await reopen(registry.token, student.id, "Please look again at this.");
    expect(notApproved.status).toBe(409);
    expect((await notApproved.json()).message).toBe(
      "The First Semester registration for 2024/2025 is not approved (it is pending); there is nothing to reopen.",
    );

    const done = await approvedStudent();
    const noReason = await reopen(registry.token, done.student.id, "  ");
    expect(noReason.status).toBe(400);
    expect((await noReason.json()).message).toBe(
      "Write the reason for reopening (at least 5 characters): the student reads it.",
    );
    expect((await reopen(registry.token, done.student.id, undefined)).status).toBe(400);

    const elsewhere = await kit.adviser([200]);
    expect(
      (await reopen(elsewhere.token, done.student.id, "Not my student, but still.")).status,
    ).toBe(403);
    const unknown = await reopen(registry.token, 2_000_000_000, "There is no such student.");
    expect(unknown.status).toBe(404);
    expect(await approved(done.student.id)).toBe(true);
    expect(await auditActions(done.student.id)).toEqual(["registration.approve"]);
  });
});
