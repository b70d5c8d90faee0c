import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { announcements, auditLog } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";

// The harness clock starts at 2025-01-15 09:00 UTC: 10:00 on 15 January in Lagos.
let api: ApiHarness;
let admin: Awaited<ReturnType<typeof createStaff>>;
let adminToken: string;
let student: { phone: string; token: string };

beforeAll(async () => {
  api = await createApiHarness();
  admin = await createStaff(api, { roles: ["admin"], totp: true });
  const row = await api.createStudent();
  student = { phone: row.phone, token: "" };
  await signInEveryone();
});
afterAll(() => api.close());

async function signInEveryone() {
  adminToken = await staffSignIn(api, admin);
  student.token = await api.signIn(student.phone);
}

const asAdmin = (path: string, init: { method?: string; json?: unknown } = {}) =>
  api.request(path, { ...init, token: adminToken });
const create = async (json: unknown) => {
  const response = await asAdmin("/staff/announcements", { method: "POST", json });
  expect(response.status).toBe(201);
  return (await response.json()).data.id as number;
};
const newsfeed = async () =>
  (
    (await (await api.request("/setup/announcement/view", { token: student.token })).json())
      .data as { body: string }[]
  ).map((row) => row.body);
const writes = async () => ({
  rows: await api.db.select().from(announcements).orderBy(announcements.id),
  audits: (await api.db.select({ n: count() }).from(auditLog))[0]!.n,
});

describe("scheduled announcements on the dashboard", () => {
  it("shows only what is live today, and a scheduled one from its first day to its last", async () => {
    await create({ body: "Always on" });
    await create({ body: "From tomorrow", show_from: "2025-01-16", show_until: "" });
    await create({ body: "Only today", show_from: "2025-01-15", show_until: "2025-01-15" });
    expect(await newsfeed()).toEqual(["Only today", "Always on"]);

    const list = (await (await asAdmin("/staff/announcements")).json()) as {
      today: string;
      data: { body: string; state: string }[];
    };
    expect(list.today).toBe("2025-01-15");
    expect(list.data.map((row) => [row.body, row.state])).toEqual([
      ["Only today", "live"],
      ["From tomorrow", "scheduled"],
      ["Always on", "live"],
    ]);

    // 23:30 in Lagos is still the 15th; 00:30 is the 16th.
    api.clock.advance(13.5 * 60 * 60_000);
    await signInEveryone();
    expect(await newsfeed()).toEqual(["Only today", "Always on"]);
    api.clock.advance(60 * 60_000);
    await signInEveryone();
    expect(await newsfeed()).toEqual(["From tomorrow", "Always on"]);
  });

  it("keeps what staff typed as plain text: markup as typed, line breaks kept, control characters gone", async () => {
    const id = await create({
      body: "<b>Exams</b> start Monday\r\n\r\n\r\n\r\nBring your\tslip\u0007 ",
    });
    const [row] = await api.db.select().from(announcements).where(eq(announcements.id, id));
    expect(row!.body).toBe("<b>Exams</b> start Monday\n\nBring your slip");
    expect(await newsfeed()).toContain("<b>Exams</b> start Monday\n\nBring your slip");
  });
});

describe("editing and deleting", () => {
  it("edits the text and days with an audit row of what changed, and writes nothing when nothing changed", async () => {
    const id = await create({ body: "Fees due Friday" });
    const saved = await asAdmin(`/staff/announcements/${id}`, {
      method: "PUT",
      json: { body: "Fees due Monday", show_from: "", show_until: "2025-02-01" },
    });
    expect(saved.status).toBe(200);
    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "announcement.update"));
    expect(entry).toMatchObject({
      staffId: admin.id,
      entityId: String(id),
      before: { body: "Fees due Friday", show_until: null },
      after: { body: "Fees due Monday", show_until: "2025-02-01" },
    });
    const before = await writes();
    expect(
      (
        await asAdmin(`/staff/announcements/${id}`, {
          method: "PUT",
          json: { body: "Fees due Monday", show_until: "2025-02-01" },
        })
      ).status,
    ).toBe(200);
    expect(await writes()).toEqual(before);
  });

  it("deletes, keeping the text in the audit log; a second delete finds nothing", async () => {
    const id = await create({ body: "Wrong date posted" });
    const deleted = await asAdmin(`/staff/announcements/${id}`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect((await deleted.json()).message).toBe(
      "Announcement deleted: students no longer see “Wrong date posted”. The audit log keeps its text.",
    );
    expect(await newsfeed()).not.toContain("Wrong date posted");
    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "announcement.delete"));
    expect(entry).toMatchObject({ entityId: String(id), before: { body: "Wrong date posted" } });
    expect((await asAdmin(`/staff/announcements/${id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("lets an ended announcement be corrected without moving its last day", async () => {
    const id = await create({ body: "Old news", show_until: "2025-01-16" });
    api.clock.advance(3 * 24 * 60 * 60_000);
    await signInEveryone();
    const fixed = await asAdmin(`/staff/announcements/${id}`, {
      method: "PUT",
      json: { body: "Old news, spelled right", show_until: "2025-01-16" },
    });
    expect(fixed.status).toBe(200);
  });
});

describe("bad input", () => {
  it.each([
    ["no body", "POST", {}, "Write the announcement."],
    ["a blank body", "POST", { body: " \r\n\t " }, "Write the announcement."],
    ["a body that is not text", "POST", { body: ["x"] }, "Write the announcement."],
    [
      "a 1001-character body",
      "POST",
      { body: "a".repeat(1001) },
      "Keep the announcement to 1000 characters or fewer.",
    ],
    [
      "a date in another format",
      "POST",
      { body: "x", show_from: "16/01/2025" },
      "Write dates as YYYY-MM-DD.",
    ],
    [
      "a last day before the first",
      "POST",
      { body: "x", show_from: "2025-03-02", show_until: "2025-03-01" },
      "The last day to show it must be on or after the first day.",
    ],
    [
      "a last day already past",
      "POST",
      { body: "x", show_until: "2025-01-01" },
      "The last day to show it has already passed. Choose today or later, or leave it empty.",
    ],
    ["an edit with no body", "PUT", { show_until: "" }, "Write the announcement."],
  ])("refuses %s with a 400 and changes nothing", async (_case, method, json, message) => {
    const [target] = await api.db.select({ id: announcements.id }).from(announcements).limit(1);
    const before = await writes();
    const path = method === "POST" ? "/staff/announcements" : `/staff/announcements/${target!.id}`;
    const response = await asAdmin(path, { method, json });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(message);
    expect(await writes()).toEqual(before);
  });

  it("refuses ids and pages that cannot exist, and a body not labelled JSON", async () => {
    const before = await writes();
    expect((await asAdmin("/staff/announcements/abc", { method: "DELETE" })).status).toBe(400);
    expect(
      (await asAdmin("/staff/announcements/99999", { method: "PUT", json: { body: "x" } })).status,
    ).toBe(404);
    expect((await asAdmin("/staff/announcements?page=-1")).status).toBe(400);
    const plain = await api.request("/staff/announcements", {
      method: "POST",
      token: adminToken,
      headers: { "content-type": "text/plain" },
      body: '{"body":"x"}',
    });
    expect(plain.status).toBe(415);
    expect(await writes()).toEqual(before);
  });
});
