import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.ts";
import { issueResetToken } from "./reset-tokens.ts";
import { encodeUid } from "./uidb64.ts";

// The reset page asks whether its link still works before it shows the form, so a student with
// a used or expired link is told so before typing two passwords.

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api.close());

const NOT_VALID =
  "This password reset link is not valid: it may have been used already or have expired. Ask for a new one on the Forgot Password page.";

async function freshLink(email: string) {
  const student = await api.createStudent({ email });
  const token = await api.db.transaction((tx) => issueResetToken(tx, student, api.clock.now()));
  return { student, uidb64: encodeUid(student.id), token: token! };
}

const check = (json: unknown) => api.request("/password/reset-link-check", { method: "POST", json });
const complete = (json: unknown) => api.request("/password/password-reset-complete", { method: "PATCH", json });

describe("POST /password/reset-link-check", () => {
  it("says a live link works, and leaves it usable", async () => {
    const link = await freshLink("check-live@example.com");
    for (let i = 0; i < 2; i++) {
      const answer = await check({ uidb64: link.uidb64, token: link.token });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ status: "success", message: "Choose your new password." });
    }
    expect((await complete({ uidb64: link.uidb64, token: link.token, password: "after-checking" })).status).toBe(200);
  });

  it("refuses a used link with the sentence the reset itself gives", async () => {
    const link = await freshLink("check-used@example.com");
    expect((await complete({ uidb64: link.uidb64, token: link.token, password: "first-new-pass" })).status).toBe(200);
    const answer = await check({ uidb64: link.uidb64, token: link.token });
    expect(answer.status).toBe(400);
    expect((await answer.json()).error.message).toBe(NOT_VALID);
  });

  it("refuses a link after 30 minutes", async () => {
    const link = await freshLink("check-late@example.com");
    api.clock.advance(30 * 60_000);
    const answer = await check({ uidb64: link.uidb64, token: link.token });
    expect(answer.status).toBe(400);
    expect((await answer.json()).error.message).toBe(NOT_VALID);
  });

  it("answers unknown, malformed and someone else's links exactly alike", async () => {
    const owner = await freshLink("check-owner@example.com");
    const other = await api.createStudent({ email: "check-other@example.com" });
    const answers = [];
    for (const link of [
      { uidb64: encodeUid(999_999), token: owner.token },
      { uidb64: encodeUid(other.id), token: owner.token },
      { uidb64: "not*base64", token: owner.token },
      { uidb64: owner.uidb64, token: randomBytes(32).toString("base64url") },
      { uidb64: owner.uidb64, token: "short" },
    ]) {
      const answer = await check(link);
      answers.push({ status: answer.status, body: await answer.json() });
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]).toEqual({ status: 400, body: expect.objectContaining({ error: expect.objectContaining({ message: NOT_VALID }) }) });
  });

  it.each([
    ["no fields", {}],
    ["no token", { uidb64: "MQ" }],
    ["an overlong token", { uidb64: "MQ", token: "t".repeat(201) }],
    ["a number for the token", { uidb64: "MQ", token: 42 }],
  ])("refuses %s with a 400 that asks for the mailed link", async (_case, json) => {
    const answer = await check(json);
    expect(answer.status).toBe(400);
    expect((await answer.json()).error.message).toBe("Click on the verification link sent to your mail");
  });

  it("refuses a body that is not JSON with a 400, not a 500", async () => {
    const answer = await api.request("/password/reset-link-check", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(answer.status).toBe(400);
  });
});
