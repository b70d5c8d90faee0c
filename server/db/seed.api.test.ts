import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { students } from "./schema.ts";
import { isUnusablePasswordHash } from "../auth/password.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";

let api: ApiHarness;
let token: string;

beforeAll(async () => {
  api = await createApiHarness({ demoData: true });
  token = await staffSignIn(api, await createStaff(api, { roles: ["registry"] }));
}, 60_000);
afterAll(() => api.close());

const asRegistry = (path: string, init: { method?: string; json?: unknown } = {}) =>
  api.request(path, { ...init, token });

// README sends the registry to this student to try decision 156 on the demo: if the seed drifts
// (an e-mail added, a password set, the mode renamed), that walkthrough breaks silently.
describe("the demo's part-time student without an e-mail address", () => {
  it("is seeded with no e-mail address and no password yet", async () => {
    const [student] = await api.db
      .select()
      .from(students)
      .where(eq(students.matricNo, "CCE/2024/PES/0311"));
    expect(student).toMatchObject({ phone: "08030000004", surname: "Yusuf", email: null });
    expect(isUnusablePasswordHash(student!.passwordHash)).toBe(true);
  });

  it("is on the registry's list of study modes as Part-Time", async () => {
    const answer = await asRegistry("/staff/modes");
    expect(answer.status).toBe(200);
    const { data } = (await answer.json()) as { data: { study: { name: string }[] } };
    expect(data.study.map((mode) => mode.name)).toContain("Part-Time");
  });

  it("is found by the registry, and her activation link is shown to the officer and works", async () => {
    const found = await asRegistry(`/staff/students?q=${encodeURIComponent("amina yusuf")}`);
    const rows = ((await found.json()) as { data: { id: number; matric_no: string }[] }).data;
    expect(rows.map((row) => row.matric_no)).toEqual(["CCE/2024/PES/0311"]);
    const record = `/staff/students/${rows[0]!.id}`;
    expect((await (await asRegistry(record)).json()).data).toMatchObject({
      email: null,
      study_mode: "Part-Time",
      activated: false,
      last_activation_link: null,
    });

    const shown = await asRegistry(`${record}/activation-link`, { method: "POST" });
    expect(shown.status).toBe(200);
    const body = await shown.json();
    expect(body.message).toContain(
      "Amina Hauwa Yusuf has no e-mail address, so the link is shown here instead of mailed",
    );
    const [, uidb64, linkToken] = /\/password\/reset\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]{43})$/.exec(
      body.data.link,
    )!;
    expect((await (await asRegistry(record)).json()).data.last_activation_link).toMatchObject({
      sent_to: null,
      state: "live",
    });

    const set = await api.request("/password/password-reset-complete", {
      method: "PATCH",
      json: { uidb64, token: linkToken, password: "Kaduna-Harmattan-2025" },
    });
    expect(set.status).toBe(200);
    await api.signIn("08030000004", "Kaduna-Harmattan-2025");
  });
});
