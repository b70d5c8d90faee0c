import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staff } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createFirstAdmin } from "./first-admin.ts";

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api.close());

describe("the first administrator of an empty installation", () => {
  it("gets an account and a password link that works once; running again gives a fresh link", async () => {
    const first = await createFirstAdmin(
      api.db,
      { name: "Aisha Lawal", email: "ICT@College.test" },
      api.clock.now(),
      "https://portal.college.test",
    );
    const again = await createFirstAdmin(
      api.db,
      { name: "Aisha Lawal", email: "ict@college.test" },
      api.clock.now(),
      "https://portal.college.test",
    );
    expect(first).toMatch(/^https:\/\/portal\.college\.test\/staff\/password\/[A-Za-z0-9_-]{43}$/);
    const token = (link: string) => link.split("/").pop();
    // The second run replaced the first link.
    expect(
      (
        await api.request("/staff/password/set", {
          method: "POST",
          json: { token: token(first), password: "a-long-password" },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await api.request("/staff/password/set", {
          method: "POST",
          json: { token: token(again), password: "a-long-password" },
        })
      ).status,
    ).toBe(200);
    const rows = await api.db.select().from(staff).where(eq(staff.email, "ict@college.test"));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.roles).toEqual(["admin"]);
  });

  it("is refused once another administrator exists", async () => {
    await expect(
      createFirstAdmin(
        api.db,
        { name: "Someone Else", email: "else@college.test" },
        api.clock.now(),
        "https://portal.college.test",
      ),
    ).rejects.toThrow(/already exists/);
  });
});
