import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, complaintReplies, complaints } from "../db/schema.ts";
import { readOutbox } from "../mail/outbox.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { mailJobs } from "../testing/mail-jobs.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";
import { TICKET_PATTERN } from "../../common/complaints/tickets.ts";

let api: ApiHarness;
let desk: string;
let amaka: { id: number; phone: string; token: string };
let tunde: { id: number; phone: string; token: string };
let deskMember: Awaited<ReturnType<typeof createStaff>>;

/** Sessions lapse when the test clock jumps days ahead: everyone signs in again. */
async function signInEveryone() {
  desk = await staffSignIn(api, deskMember);
  amaka.token = await api.signIn(amaka.phone);
  tunde.token = await api.signIn(tunde.phone);
}

beforeAll(async () => {
  api = await createApiHarness();
  deskMember = await createStaff(api, { roles: ["support"] });
  const first = await api.createStudent({
    email: "amaka@example.com",
    surname: "Obi",
    othername: "Amaka",
  });
  const second = await api.createStudent({ email: "tunde@example.com" });
  amaka = { id: first.id, phone: first.phone, token: "" };
  tunde = { id: second.id, phone: second.phone, token: "" };
  await signInEveryone();
});
afterAll(() => api.close());

const complain = async (token: string, subject: string) => {
  const response = await api.request("/complaint/", {
    method: "POST",
    token,
    json: { subject, message: `About ${subject}.` },
  });
  expect(response.status).toBe(201);
  return (await response.json()).data as { ticket: string; status: string };
};
const asDesk = (path: string, init: { method?: string; json?: unknown } = {}) =>
  api.request(path, { ...init, token: desk });
const mine = async (token: string) =>
  (await (await api.request("/complaint/mine", { token })).json()) as {
    data: { ticket: string; status: string; replies: { body: string }[] }[];
    total: number;
  };
const writes = async () => ({
  replies: (await api.db.select({ n: count() }).from(complaintReplies))[0]!.n,
  audits: (await api.db.select({ n: count() }).from(auditLog))[0]!.n,
  statuses: await api.db
    .select({ ticket: complaints.ticket, status: complaints.status })
    .from(complaints)
    .orderBy(complaints.id),
  mails: (await mailJobs(api.db)).length,
});

describe("a complaint gets a ticket and a status", () => {
  it("answers the spec's sentence with a random ticket number and the status open", async () => {
    const response = await api.request("/complaint/", {
      method: "POST",
      token: amaka.token,
      json: { subject: "Exam slip", message: "Not printed." },
    });
    const body = await response.json();
    expect(body.message).toBe("Successful! Complaint has been sent");
    expect(body.data.ticket).toMatch(TICKET_PATTERN);
    expect(body.data.status).toBe("open");
    const other = await complain(amaka.token, "Second");
    expect(other.ticket).not.toBe(body.data.ticket);
  });

  it("lists a student's own complaints only, newest first, and nobody else's", async () => {
    const theirs = await complain(tunde.token, "Hostel fan");
    const own = await mine(amaka.token);
    expect(own.data.map((row) => row.ticket)).not.toContain(theirs.ticket);
    expect(own.data[0]).toMatchObject({ subject: "Second", status: "open", replies: [] });
    expect(own.total).toBe(2);
    expect((await mine(tunde.token)).data.map((row) => row.ticket)).toEqual([theirs.ticket]);
  });

  it("refuses /complaint/mine without a student session, with a staff session, and with a bad page", async () => {
    expect((await api.request("/complaint/mine")).status).toBe(401);
    expect((await api.request("/complaint/mine", { token: desk })).status).toBe(401);
    const bad = await api.request("/complaint/mine?page=0", { token: amaka.token });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toBe("Pages are numbered from 1.");
  });
});

describe("the help desk inbox", () => {
  it("lists complaints oldest first and filters by status and age", async () => {
    const list = await (await asDesk("/staff/complaints")).json();
    expect(list.data.map((row: { subject: string }) => row.subject)).toEqual([
      "Exam slip",
      "Second",
      "Hostel fan",
    ]);
    expect(list.data[0]).toMatchObject({ name: "Obi Amaka", status: "open", replies: 0 });

    api.clock.advance(2 * 24 * 60 * 60_000);
    await signInEveryone();
    await complain(tunde.token, "Fresh one");
    const older = await (await asDesk("/staff/complaints?older_than_days=1")).json();
    expect(older.data.map((row: { subject: string }) => row.subject)).toEqual([
      "Exam slip",
      "Second",
      "Hostel fan",
    ]);
    const answered = await (await asDesk("/staff/complaints?status=answered")).json();
    expect(answered).toMatchObject({ data: [], total: 0 });
  });

  it("pages 25 at a time", async () => {
    await api.db.insert(complaints).values(
      Array.from({ length: 30 }, (_, n) => ({
        studentId: tunde.id,
        subject: `Bulk ${n}`,
        message: "x",
        name: "T",
        email: "t@example.com",
        createdAt: api.clock.now(),
      })),
    );
    const second = await (await asDesk("/staff/complaints?page=2")).json();
    expect(second).toMatchObject({ total: 34, page: 2, page_size: 25 });
    expect(second.data).toHaveLength(9);
  });

  it.each([
    [
      "an unknown status",
      "/staff/complaints?status=pending",
      "Choose a status: open, answered or closed.",
    ],
    [
      "an age not offered",
      "/staff/complaints?older_than_days=2",
      "Choose an age from the list: 1, 3, 7 or 14 days.",
    ],
    ["a page that is not a number", "/staff/complaints?page=two", "Pages are numbered from 1."],
    [
      "a ticket that cannot exist",
      "/staff/complaints/CMP-0000",
      "There is no complaint with that ticket number.",
    ],
  ])("refuses %s with a 400", async (_case, path, message) => {
    const response = await asDesk(path);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(message);
  });
});

describe("replying, closing and reopening", () => {
  it("stores the reply, e-mails it to the student, marks the complaint answered and shows it on the student's list", async () => {
    const { ticket } = await complain(amaka.token, "Missing result");
    const reply = await asDesk(`/staff/complaints/${ticket.toLowerCase()}/replies`, {
      method: "POST",
      json: { body: "  The result is now uploaded.\nCheck your record.  " },
    });
    expect(reply.status).toBe(201);

    const detail = (await (await asDesk(`/staff/complaints/${ticket}`)).json()).data;
    expect(detail).toMatchObject({
      ticket,
      status: "answered",
      student: { name: "Obi Amaka", email: "amaka@example.com" },
    });
    expect(detail.replies).toEqual([
      expect.objectContaining({
        body: "The result is now uploaded.\nCheck your record.",
        staff_name: expect.any(String),
      }),
    ]);

    const own = (await mine(amaka.token)).data.find((row) => row.ticket === ticket)!;
    expect(own.status).toBe("answered");
    expect(own.replies.map((row) => row.body)).toEqual([
      "The result is now uploaded.\nCheck your record.",
    ]);

    await api.deliverMail();
    const mail = (await readOutbox(api.outboxDir)).find((message) =>
      message.subject.includes(`Reply to your complaint ${ticket}`),
    );
    expect(mail?.to).toBe("amaka@example.com");
    expect(mail?.text).toContain("The result is now uploaded.");
    expect(mail?.text).toContain("http://localhost:4321/complaint");
    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "complaint.reply"));
    expect(entry).toMatchObject({
      entity: "complaint",
      entityId: ticket,
      before: { status: "open" },
      after: { status: "answered" },
    });
  });

  it("closes and reopens once each, refusing a reply to a closed complaint and writing nothing for a refusal", async () => {
    const { ticket } = await complain(tunde.token, "Bursary queue");
    expect((await asDesk(`/staff/complaints/${ticket}/close`, { method: "POST" })).status).toBe(
      200,
    );
    expect((await mine(tunde.token)).data.find((row) => row.ticket === ticket)?.status).toBe(
      "closed",
    );

    const before = await writes();
    const twice = await asDesk(`/staff/complaints/${ticket}/close`, { method: "POST" });
    expect(twice.status).toBe(409);
    expect((await twice.json()).error.message).toBe(`${ticket} is already closed.`);
    const toClosed = await asDesk(`/staff/complaints/${ticket}/replies`, {
      method: "POST",
      json: { body: "Hello" },
    });
    expect(toClosed.status).toBe(409);
    expect((await toClosed.json()).error.message).toBe(
      `${ticket} is closed. Reopen it before replying.`,
    );
    expect(await writes()).toEqual(before);

    expect((await asDesk(`/staff/complaints/${ticket}/reopen`, { method: "POST" })).status).toBe(
      200,
    );
    expect((await asDesk(`/staff/complaints/${ticket}/reopen`, { method: "POST" })).status).toBe(
      409,
    );
    const actions = await api.db
      .select({ action: auditLog.action, before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(eq(auditLog.entityId, ticket));
    expect(actions).toEqual([
      { action: "complaint.close", before: { status: "open" }, after: { status: "closed" } },
      { action: "complaint.reopen", before: { status: "closed" }, after: { status: "open" } },
    ]);
  });

  it.each([
    ["no body", {}, 400, "Write the reply to the student."],
    ["a blank reply", { body: " \n " }, 400, "Write the reply to the student."],
    ["a reply that is not text", { body: 12 }, 400, "Write the reply to the student."],
    [
      "a 5001-character reply",
      { body: "r".repeat(5001) },
      400,
      "Keep the reply to 5000 characters or fewer.",
    ],
  ])("refuses %s with a %i and changes nothing", async (_case, json, status, message) => {
    const { ticket } = await complain(amaka.token, `Bad reply ${_case}`);
    const before = await writes();
    const response = await asDesk(`/staff/complaints/${ticket}/replies`, { method: "POST", json });
    expect(response.status).toBe(status);
    expect((await response.json()).error.message).toBe(message);
    expect(await writes()).toEqual(before);
  });

  it("refuses a reply that is not labelled JSON, and an unknown ticket, changing nothing", async () => {
    const before = await writes();
    const plain = await api.request("/staff/complaints/CMP-ABCDEF/replies", {
      method: "POST",
      token: desk,
      headers: { "content-type": "text/plain" },
      body: '{"body":"x"}',
    });
    expect(plain.status).toBe(415);
    const unknown = await asDesk("/staff/complaints/CMP-ABCDEF/replies", {
      method: "POST",
      json: { body: "Hello" },
    });
    expect(unknown.status).toBe(404);
    expect((await asDesk("/staff/complaints/CMP-ABCDEF/close", { method: "POST" })).status).toBe(
      404,
    );
    expect(await writes()).toEqual(before);
  });
});
