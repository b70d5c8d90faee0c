import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../../testing/api-harness.test-kit.ts";
import { insertCatalogue } from "../seed.ts";
import { readSmsOutbox } from "../../sms/outbox.ts";
import { advisingTestKit } from "./advising.test-kit.ts";

// What became of a semester reaches the student's phone as well as the portal (decision 200).

let api: ApiHarness;
let kit: ReturnType<typeof advisingTestKit>;
let adviser: Awaited<ReturnType<ReturnType<typeof advisingTestKit>["adviser"]>>;

beforeAll(async () => {
  api = await createApiHarness();
  await insertCatalogue(api.db);
  kit = advisingTestKit(api);
  adviser = await kit.adviser([100]);
});
afterAll(() => api.close());

async function textsTo(phone: string) {
  await api.deliverSms();
  return (await readSmsOutbox(api.smsOutboxDir))
    .filter((sms) => sms.to === `+234${phone.slice(1)}`)
    .map((sms) => sms.text)
    .reverse();
}

describe("texts about a semester's registration", () => {
  it("tells the student it was approved", async () => {
    const { student } = await kit.student();
    expect((await kit.approve(adviser.token, student.id, 1)).status).toBe(200);
    expect(await textsTo(student.phone)).toEqual([
      "Your First Semester course registration for 2024/2025 is approved. Print your slip on the portal. Student Portal",
    ]);
  });

  it("tells the student it was sent back, without the adviser's note (it may be long, or not fit an SMS)", async () => {
    const { student } = await kit.student();
    expect(
      (await kit.sendBack(adviser.token, student.id, "Add GSE 111 — it is compulsory.")).status,
    ).toBe(200);
    expect(await textsTo(student.phone)).toEqual([
      "Your First Semester course registration for 2024/2025 was sent back to you. Read why on the portal, change it and submit again. Student Portal",
    ]);
  });

  it("sends nothing more for a refused second approval", async () => {
    const { student } = await kit.student();
    expect((await kit.approve(adviser.token, student.id, 1)).status).toBe(200);
    expect((await kit.approve(adviser.token, student.id, 1)).status).toBe(409);
    expect(await textsTo(student.phone)).toHaveLength(1);
  });
});
