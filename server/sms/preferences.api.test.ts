import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { insertCatalogue } from "../courses/seed.ts";
import { advisingTestKit } from "../courses/advising/advising.test-kit.ts";
import { readSmsOutbox } from "./outbox.ts";

// A student chooses which news comes by SMS; a STOP reply stops it; codes and receipts always go
// (decision 200).

const SECRET = "s".repeat(40);
let api: ApiHarness;
let kit: ReturnType<typeof advisingTestKit>;
let adviser: Awaited<ReturnType<ReturnType<typeof advisingTestKit>["adviser"]>>;

beforeAll(async () => {
  api = await createApiHarness({ smsCallbackSecret: SECRET });
  await insertCatalogue(api.db);
  kit = advisingTestKit(api);
  adviser = await kit.adviser([100]);
});
afterAll(() => api.close());

const preferences = (token: string) => api.request("/student/sms-preferences", { token });
const choose = (token: string, json: unknown) =>
  api.request("/student/sms-preferences", { method: "PUT", token, json });
const ALL_ON = { registration_news: true, results_news: true, deadline_reminders: true };
const optOut = (phoneNumber: string, secret = SECRET, clientAddress = "196.201.214.200") =>
  api.request(`/sms/opt-out?${new URLSearchParams({ secret })}`, {
    method: "POST",
    clientAddress,
    body: new URLSearchParams({ phoneNumber, senderId: "CROWNFIELD" }),
  });
async function textsTo(phone: string) {
  await api.deliverSms();
  return (await readSmsOutbox(api.smsOutboxDir)).filter(
    (sms) => sms.to === `+234${phone.slice(1)}`,
  );
}

describe("the student's choice of texts", () => {
  it("starts with registration news on, and saves a choice", async () => {
    const { token } = await kit.student();
    expect(await (await preferences(token)).json()).toEqual({
      status: "success",
      data: { ...ALL_ON, stopped_at: null },
    });
    const saved = await choose(token, { ...ALL_ON, registration_news: false, results_news: false });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({
      status: "success",
      message: "Your text message choices are saved.",
      data: { ...ALL_ON, registration_news: false, results_news: false, stopped_at: null },
    });
  });

  it("sends no registration news to a student who turned it off", async () => {
    const { student, token } = await kit.student();
    await choose(token, { ...ALL_ON, registration_news: false });
    expect((await kit.approve(adviser.token, student.id, 1)).status).toBe(200);
    expect(await textsTo(student.phone)).toEqual([]);
  });

  it.each([
    [{}, "registration_news", "course registration news"],
    [{ ...ALL_ON, registration_news: "no" }, "registration_news", "course registration news"],
    [{ ...ALL_ON, results_news: null }, "results_news", "results news"],
    [{ registration_news: true, results_news: true }, "deadline_reminders", "deadline reminders"],
  ])("refuses %j with a clear error and changes nothing", async (json, field, what) => {
    const { token } = await kit.student();
    const answer = await choose(token, json);
    expect(answer.status).toBe(400);
    expect((await answer.json()).error.fields[field]).toBe(
      `Say whether to text ${what}: true or false.`,
    );
    expect((await (await preferences(token)).json()).data).toEqual({ ...ALL_ON, stopped_at: null });
  });

  it("is for the signed-in student only", async () => {
    expect((await api.request("/student/sms-preferences")).status).toBe(401);
  });
});

describe("a STOP reply", () => {
  it("stops registration news but not codes, until the student chooses again", async () => {
    const { student, token } = await kit.student();
    expect((await optOut(`+234${student.phone.slice(1)}`)).status).toBe(200);
    const stopped = (await (await preferences(token)).json()).data;
    expect(stopped.stopped_at).toBe(api.clock.now().toISOString());
    // A second STOP keeps the first one's time, which the biodata page shows.
    api.clock.advance(60_000);
    expect((await optOut(`+234${student.phone.slice(1)}`)).status).toBe(200);
    expect((await (await preferences(token)).json()).data.stopped_at).toBe(stopped.stopped_at);
    expect((await kit.approve(adviser.token, student.id, 1)).status).toBe(200);
    expect(await textsTo(student.phone)).toEqual([]);

    // A password code still goes: the student asked for it.
    await api.request("/password/request-reset-code", {
      method: "POST",
      json: { phone: student.phone },
    });
    await expect.poll(async () => (await textsTo(student.phone)).length).toBe(1);

    await choose(token, ALL_ON);
    expect((await (await preferences(token)).json()).data).toEqual({ ...ALL_ON, stopped_at: null });
  });

  it("answers OK for a number on no record, and changes nothing", async () => {
    expect((await optOut("+2347099999999")).status).toBe(200);
  });

  it.each([
    ["a wrong secret", "x".repeat(40)],
    ["no secret", ""],
  ])("is answered as if nothing were there with %s", async (_, secret) => {
    const { student, token } = await kit.student();
    expect((await optOut(student.phone, secret)).status).toBe(404);
    expect((await (await preferences(token)).json()).data.stopped_at).toBeNull();
  });

  it("refuses a notice without a Nigerian number", async () => {
    expect((await optOut("12345")).status).toBe(400);
  });
});

describe("without a callback secret (development)", () => {
  it("takes STOP replies from this machine only", async () => {
    const local = await createApiHarness();
    try {
      const student = await local.createStudent();
      const post = (clientAddress: string) =>
        local.request("/sms/opt-out", {
          method: "POST",
          clientAddress,
          body: new URLSearchParams({ phoneNumber: student.phone }),
        });
      expect((await post("203.0.113.9")).status).toBe(404);
      expect((await post("127.0.0.1")).status).toBe(200);
    } finally {
      await local.close();
    }
  });
});
