import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";
import { smsMessages } from "../db/schema.ts";
import type { StaffRole } from "../../common/staff/staff.ts";

// The bursary sees how many text messages went each day and what the provider charged (decision 200).

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
  // The test clock's day is 15 January 2025 in Lagos (UTC+1).
  const at = (iso: string) => new Date(iso);
  let key = 0;
  const row = (createdAt: string, status: string, cost: string | null) => ({
    idempotencyKey: `usage:${key++}`,
    kind: "receipt",
    createdAt: at(createdAt),
    status,
    cost,
  });
  await api.db.insert(smsMessages).values([
    row("2025-01-15T09:00:00Z", "sent", "NGN 2.2000"),
    row("2025-01-15T10:00:00Z", "sent", "NGN 4.4000"),
    // 00:30 on the 15th in Lagos, though still the 14th in UTC.
    row("2025-01-14T23:30:00Z", "refused", null),
    row("2025-01-15T11:00:00Z", "queued", null),
    row("2025-01-13T12:00:00Z", "sent", "NGN 2.2000"),
    // Older than the 30 days asked about.
    row("2024-11-01T12:00:00Z", "sent", "NGN 2.2000"),
  ]);
});
afterAll(() => api.close());

const as = async (roles: StaffRole[]) =>
  staffSignIn(api, await createStaff(api, { roles, totp: true }));
const daily = (token: string, query = "") => api.request(`/staff/sms/daily${query}`, { token });

describe("GET /staff/sms/daily", () => {
  it("counts each Lagos day's messages by outcome and adds up what was charged", async () => {
    const answer = await daily(await as(["bursar"]));
    expect(answer.status).toBe(200);
    expect((await answer.json()).data.days).toEqual([
      { day: "2025-01-15", sent: 2, refused: 1, waiting: 1, cost: "NGN 6.60" },
      { day: "2025-01-13", sent: 1, refused: 0, waiting: 0, cost: "NGN 2.20" },
    ]);
  });

  it("goes as far back as asked, up to 90 days", async () => {
    const token = await as(["admin"]);
    expect(
      (await (await daily(token, "?days=1")).json()).data.days.map((d: { day: string }) => d.day),
    ).toEqual(["2025-01-15"]);
    expect((await (await daily(token, "?days=90")).json()).data.days).toHaveLength(3);
  });

  it.each(["?days=0", "?days=91", "?days=two", "?days=1.5"])(
    "refuses %s with a clear error",
    async (query) => {
      const answer = await daily(await as(["bursar"]), query);
      expect(answer.status).toBe(400);
      expect((await answer.json()).error.fields.days).toBe(
        "Give days as a whole number from 1 to 90.",
      );
    },
  );

  it.each([["registry"], ["adviser"], ["support"], ["exams"]] as StaffRole[][])(
    "is not for %s",
    async (role) => {
      expect((await daily(await as([role]))).status).toBe(403);
    },
  );
});
