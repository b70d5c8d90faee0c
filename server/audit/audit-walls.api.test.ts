import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBursaryKit, type BursaryKit } from "../payments/bursary/bursary.test-kit.ts";
import { insertCatalogue } from "../courses/seed.ts";
import { advisingTestKit } from "../courses/advising/advising.test-kit.ts";
import type { StaffRole } from "../../common/staff/staff.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";

// Real rows of each kind, written through the endpoints by the role whose work they are; then
// each role reads the log and sees only what its endpoints would show it (issue 30, item 10).
let kit: BursaryKit;
const tokens = new Map<string, string>();
const REPLY =
  "Your hospital letter about the sickle-cell crisis is on file; the exam is rescheduled.";
const REFUND_REASON = "Paid twice: the second card payment was the mother's card.";
const NEW_PHONE = "08039990001";
let ticket = "";
let refunded = "";
let studentId = 0;
let adviserId = 0;
let otherAdviserToken = "";

type Row = {
  staff_id: number | null;
  action: string;
  entity: string;
  entity_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  hidden?: string[];
};

async function logAs(who: string, query = "") {
  const response = await kit.api.request(`/staff/audit${query}`, { token: tokens.get(who) });
  expect(response.status, `${who} reading the audit log`).toBe(200);
  return ((await response.json()) as { data: Row[] }).data;
}
// Everyone also reads the rows about their own account (their sign-ins): left out here.
const actions = (rows: Row[]) =>
  [...new Set(rows.filter((row) => row.entity !== "staff").map((row) => row.action))].sort();

beforeAll(async () => {
  // Refunds go straight to Paystack here (the fee is above the second-approval line otherwise).
  kit = await createBursaryKit({ refundSecondApprovalKobo: 20_000_000 });
  const { api } = kit;
  await insertCatalogue(api.db);
  const roles: StaffRole[] = ["registry", "support", "admin", "bursar"];
  for (const role of roles)
    tokens.set(role, await staffSignIn(api, await createStaff(api, { roles: [role], totp: true })));
  const advising = advisingTestKit(api);
  const adviser = await advising.adviser([100]);
  adviserId = adviser.member.id;
  tokens.set("adviser", adviser.token);
  otherAdviserToken = (await advising.adviser([300])).token;

  // Help desk: a reply holding health details.
  const complainant = await kit.newStudent();
  const complaint = await api.request("/complaint/", {
    method: "POST",
    token: complainant.token,
    json: { subject: "Missed exam", message: "I was in hospital." },
  });
  ticket = (await complaint.json()).data.ticket;
  expect(
    (
      await api.request(`/staff/complaints/${ticket}/replies`, {
        method: "POST",
        token: tokens.get("support"),
        json: { body: REPLY },
      })
    ).status,
  ).toBe(201);

  // Bursary: a refund with its reason.
  const { second } = await kit.paidTwice();
  refunded = second;
  expect(
    (
      await kit.asBursar("/staff/refunds", {
        method: "POST",
        json: { reference: second, reason: REFUND_REASON, amount_kobo: 6_000_000 },
      })
    ).status,
  ).toBe(201);

  // Registry: a personal field of a student, and a new session.
  const { student } = await kit.newStudent();
  studentId = student.id;
  expect(
    (
      await api.request(`/staff/students/${student.id}`, {
        method: "PATCH",
        token: tokens.get("registry"),
        json: { phone: NEW_PHONE, level: 200 },
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await api.request("/staff/sessions", {
        method: "POST",
        token: tokens.get("registry"),
        json: { name: "2031/2032" },
      })
    ).status,
  ).toBe(201);

  // Admin: an announcement.
  expect(
    (
      await api.request("/staff/announcements", {
        method: "POST",
        token: tokens.get("admin"),
        json: { body: "Library closes at 4 pm on Friday." },
      })
    ).status,
  ).toBe(201);

  // Adviser: an approval.
  const registered = await advising.student();
  expect((await advising.approve(adviser.token, registered.student.id, 1)).status).toBe(200);
});
afterAll(() => kit.api.close());

describe("each role reads only the audit rows of records it may read", () => {
  it("the registry sees students, structure and sessions, and neither help-desk replies nor refund reasons", async () => {
    const rows = await logAs("registry");
    const text = JSON.stringify(rows);
    expect(text).not.toContain(REPLY);
    expect(text).not.toContain(REFUND_REASON);
    expect(actions(rows)).not.toContain("complaint.reply");
    expect(actions(rows)).not.toContain("payment.refund");
    expect(actions(rows)).toEqual(
      expect.arrayContaining(["student.update", "session.create", "registration.approve"]),
    );
    const change = rows.find((row) => row.action === "student.update");
    expect(change?.after).toMatchObject({ phone: NEW_PHONE, level: 200 });
    // Its own search cannot reach past the wall either.
    expect(await logAs("registry", `?action=complaint.reply`)).toEqual([]);
    expect(await logAs("registry", `?action=payment.refund`)).toEqual([]);
  });

  it("the bursary sees fees, payments and refunds, with the reason, and no student record or complaint", async () => {
    const rows = await logAs("bursar");
    expect(actions(rows)).toContain("payment.refund");
    expect(rows.find((row) => row.action === "payment.refund")?.after).toMatchObject({
      reason: REFUND_REASON,
    });
    for (const other of [
      "complaint.reply",
      "student.update",
      "session.create",
      "announcement.create",
      "registration.approve",
    ])
      expect(actions(rows)).not.toContain(other);
    expect(JSON.stringify(rows)).not.toContain(REPLY);
  });

  it("the help desk sees complaints, with the reply, and nothing else but its own sign-ins", async () => {
    const rows = await logAs("support");
    expect(actions(rows)).toEqual(["complaint.reply"]);
    expect(rows.find((row) => row.action === "complaint.reply")?.after).toMatchObject({
      reply: REPLY,
    });
    const own = rows.filter((row) => row.entity === "staff");
    expect(own.map((row) => row.action)).toEqual(["staff.sign_in"]);
    expect(own[0]!.entity_id).toBe(String(own[0]!.staff_id));
  });

  it("an adviser sees the approvals of their own students, not another adviser's, and no other record", async () => {
    const rows = await logAs("adviser");
    expect(actions(rows)).toEqual(["registration.approve"]);
    tokens.set("other-adviser", otherAdviserToken);
    expect(actions(await logAs("other-adviser"))).toEqual([]);
    expect(adviserId).toBeGreaterThan(0);
  });

  it("the administrator sees who did what everywhere, but not complaint texts, refund reasons or personal fields", async () => {
    const rows = await logAs("admin");
    expect(actions(rows)).toEqual(
      expect.arrayContaining([
        "announcement.create",
        "complaint.reply",
        "payment.refund",
        "student.update",
        "session.create",
        "registration.approve",
      ]),
    );
    const text = JSON.stringify(rows);
    expect(text).not.toContain(REPLY);
    expect(text).not.toContain(REFUND_REASON);
    expect(text).not.toContain(NEW_PHONE);
    const change = rows.find((row) => row.action === "student.update")!;
    expect(change.after).toEqual({ level: 200 });
    expect(change.hidden).toEqual(["phone"]);
    expect(rows.find((row) => row.action === "payment.refund")?.after).toMatchObject({
      status: "refunding",
      amount_kobo: 6_000_000,
    });
    expect(rows.find((row) => row.action === "announcement.create")?.after).toMatchObject({
      body: "Library closes at 4 pm on Friday.",
    });
  });

  it("a search for a record behind the wall finds nothing rather than refusing", async () => {
    expect(await logAs("support", `?matric_no=${encodeURIComponent("NOPE/1")}`)).toEqual([]);
    expect(refunded).not.toBe("");
    expect(ticket).not.toBe("");
    expect(studentId).toBeGreaterThan(0);
  });
});
