import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { complaintReplies, complaints } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";

// Issue 30, item 16: the student answers under their own complaint; the help desk reads the thread.
let api: ApiHarness;
let desk: string;
let owner: string;
let other: string;

beforeAll(async () => {
  api = await createApiHarness();
  desk = await staffSignIn(api, await createStaff(api, { roles: ["support"] }));
  owner = await api.signIn(
    (await api.createStudent({ email: "owner@example.com", surname: "Okafor", othername: "Ada" }))
      .phone,
  );
  other = await api.signIn((await api.createStudent({ email: "other@example.com" })).phone);
});
afterAll(() => api.close());

async function complain(token: string) {
  const response = await api.request("/complaint/", {
    method: "POST",
    token,
    json: { subject: "Result missing", message: "My EDU 111 result is missing." },
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { ticket: string } }).data.ticket;
}
const reply = (token: string, ticket: string, body: unknown) =>
  api.request(`/complaint/${ticket}/replies`, { method: "POST", token, json: { body } });
const statusOf = async (ticket: string) =>
  (await api.db.select().from(complaints).where(eq(complaints.ticket, ticket)))[0]!.status;
const replyCount = async () => (await api.db.select({ n: count() }).from(complaintReplies))[0]!.n;

describe("a student's reply under their own complaint", () => {
  it("reopens a closed complaint, and the help desk reads the whole thread in order", async () => {
    const ticket = await complain(owner);
    expect(
      (
        await api.request(`/staff/complaints/${ticket}/replies`, {
          method: "POST",
          token: desk,
          json: { body: "Which session?" },
        })
      ).status,
    ).toBe(201);
    expect(
      (await api.request(`/staff/complaints/${ticket}/close`, { method: "POST", token: desk }))
        .status,
    ).toBe(200);

    const answer = await reply(owner, ticket, "  2023/2024, first semester.  ");
    expect(answer.status).toBe(201);
    expect(await answer.json()).toMatchObject({
      message: `Reply sent. ${ticket} was closed and is open again: the help desk will read your reply.`,
      data: { ticket, status: "open", reopened: true },
    });
    expect(await statusOf(ticket)).toBe("open");

    const detail = (await (
      await api.request(`/staff/complaints/${ticket}`, { token: desk })
    ).json()) as { data: { replies: unknown[] } };
    expect(detail.data.replies).toMatchObject([
      { body: "Which session?", from: "help_desk", staff_name: expect.any(String) },
      { body: "2023/2024, first semester.", from: "student", staff_name: null },
    ]);
    const mine = (await (await api.request("/complaint/mine", { token: owner })).json()) as {
      data: { ticket: string; replies: unknown[] }[];
    };
    expect(mine.data.find((row) => row.ticket === ticket)!.replies).toMatchObject([
      { body: "Which session?", from: "help_desk" },
      { body: "2023/2024, first semester.", from: "student" },
    ]);
  });

  it("puts an answered complaint back among the open ones, and says so plainly when it was not closed", async () => {
    const ticket = await complain(owner);
    await api.request(`/staff/complaints/${ticket}/replies`, {
      method: "POST",
      token: desk,
      json: { body: "Done." },
    });
    expect(await statusOf(ticket)).toBe("answered");
    const answer = await reply(owner, ticket, "It is still missing.");
    expect((await answer.json()).message).toBe(
      `Reply sent. The help desk will read it under ${ticket}.`,
    );
    expect(await statusOf(ticket)).toBe("open");
  });

  it("answers another student's ticket as an unknown one, and changes nothing", async () => {
    const ticket = await complain(owner);
    const before = await replyCount();
    // Someone else's ticket answers exactly as one that does not exist; a malformed number is a 400.
    for (const [token, path, status] of [
      [other, ticket, 404],
      [owner, "CMP-ZZZZZZ", 404],
      [owner, "not-a-ticket", 400],
    ] as const) {
      const answer = await reply(token, path, "Let me in.");
      expect(answer.status).toBe(status);
      expect((await answer.json()).error.message).toMatch(
        /There is no complaint with that ticket number/,
      );
    }
    expect(await replyCount()).toBe(before);
    expect(await statusOf(ticket)).toBe("open");
  });

  it("refuses an empty, an over-long and an unsigned reply, writing nothing", async () => {
    const ticket = await complain(owner);
    const before = await replyCount();
    const empty = await reply(owner, ticket, "   ");
    expect(empty.status).toBe(400);
    expect((await empty.json()).error.message).toBe("Write your reply.");
    expect((await reply(owner, ticket, "x".repeat(5001))).status).toBe(400);
    expect((await reply(owner, ticket, 42)).status).toBe(400);
    expect(
      (
        await api.request(`/complaint/${ticket}/replies`, {
          method: "POST",
          json: { body: "Hello" },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await api.request(`/complaint/${ticket}/replies`, {
          method: "POST",
          token: desk,
          json: { body: "Hello" },
        })
      ).status,
    ).toBe(401);
    expect(await replyCount()).toBe(before);
  });
});
