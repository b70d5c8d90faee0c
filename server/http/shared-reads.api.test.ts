import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { academicSessions, announcements, courseMappings } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { insertCatalogue } from "../courses/seed.ts";
import { courseTestKit } from "../courses/course.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";

// Reads every student shares are kept as long as a session is (SESSION_CACHE_MS).
const CACHE_MS = 400;

let api: ApiHarness;
let kit: ReturnType<typeof courseTestKit>;
let token: string;
let adminToken: string;

beforeAll(async () => {
  api = await createApiHarness({
    sessions: { idleMinutes: 120, absoluteHours: 12, cacheMs: CACHE_MS },
  });
  await insertCatalogue(api.db);
  kit = courseTestKit(api);
  const student = await api.createStudent({
    phone: "08036660001",
    password: "demo1234",
    level: 100,
  });
  token = await api.signIn(student.phone);
  const admin = await createStaff(api, { roles: ["admin"], totp: true });
  adminToken = await staffSignIn(api, admin);
});
afterAll(() => api.close());

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const shownAnnouncements = async () =>
  (
    (await (await api.request("/setup/announcement/view", { token })).json()) as {
      data: { body: string }[];
    }
  ).data.map((announcement) => announcement.body);
const registrationOpen = async () => {
  const body = (await (await api.request("/setup/sessions/read", { token })).json()) as {
    data: { data: { name: string; course_modifiable: boolean }[] };
  };
  return body.data.data.find((session) => session.name === "2024/2025")!.course_modifiable;
};

describe("reads every student shares, kept for a moment in each process", () => {
  it("show an announcement staff publish through this process at once", async () => {
    expect(await shownAnnouncements()).not.toContain("Fees close on Friday");
    const published = await api.request("/staff/announcements", {
      method: "POST",
      token: adminToken,
      json: { body: "Fees close on Friday" },
    });
    expect(published.status).toBe(201);
    expect(await shownAnnouncements()).toContain("Fees close on Friday");
  });

  it("show an announcement written through another process once the window has passed", async () => {
    expect(await shownAnnouncements()).not.toContain("Registration week starts Monday");
    // As another instance's staff page would: the row is written, this process is not told.
    await api.db.insert(announcements).values({ body: "Registration week starts Monday" });
    expect(await shownAnnouncements()).not.toContain("Registration week starts Monday");
    await wait(CACHE_MS + 100);
    expect(await shownAnnouncements()).toContain("Registration week starts Monday");
  });

  it("show a programme's courses as mapped once the window has passed", async () => {
    const before = await kit.offered(token);
    const bio111 = before.get("BIO 111")!;
    await api.db.delete(courseMappings).where(eq(courseMappings.id, bio111.id));
    await wait(CACHE_MS + 100);
    expect((await kit.offered(token)).has("BIO 111")).toBe(false);
    expect(before.size - (await kit.offered(token)).size).toBe(1);
  });

  it("never decide: a window closed through another process refuses registration at once, while the page may still show it open", async () => {
    expect(await registrationOpen()).toBe(true);
    await api.db
      .update(academicSessions)
      .set({ courseModifiable: false })
      .where(eq(academicSessions.name, "2024/2025"));
    expect(await registrationOpen()).toBe(true);
    const refused = await kit.register(token, {
      courses: await kit.idsOf(token, ["CHM 111"]),
      registration_level: 100,
      session: "2024/2025",
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.message).toBe(
      "Course registration for 2024/2025 is closed; it can no longer change.",
    );
    await wait(CACHE_MS + 100);
    expect(await registrationOpen()).toBe(false);
  });
});
