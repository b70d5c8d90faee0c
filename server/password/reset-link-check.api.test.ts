import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
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

const check = (json: unknown) =>
  api.request("/password/reset-link-check", { method: "POST", json });
const complete = (json: unknown) =>
  api.request("/password/password-reset-complete", { method: "PATCH", json });

describe("POST /password/reset-link-check", () => {
  it("says a live link works, and leaves it usable", async () => {
    const link = await freshLink("check-live@example.com");
    for (let i = 0; i < 2; i++) {
      const answer = await check({ uidb64: link.uidb64, token: link.token });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({
        status: "success",
        message: "Choose your new password.",
      });
    }
    expect(
      (await complete({ uidb64: link.uidb64, token: link.token, password: "after-checking" }))
        .status,
    ).toBe(200);
  });

  it("refuses a used link with the sentence the reset itself gives", async () => {
    const link = await freshLink("check-used@example.com");
    expect(
      (await complete({ uidb64: link.uidb64, token: link.token, password: "first-new-pass" }))
        .status,
    ).toBe(200);
    const answer = await check({ uidb64: link.uidb64, token: link.token });
    expect(answer.status).toBe(400);
    expect((await answer.json()).error.message).toBe(NOT_VALID);
  });

  it("refuses a link after 30 minutes, saying when it expired and where to get a new one", async () => {
    const link = await freshLink("check-late@example.com");
    api.clock.advance(30 * 60_000);
    const answer = await check({ uidb64: link.uidb64, token: link.token });
    expect(answer.status).toBe(400);
    expect((await answer.json()).error).toMatchObject({
      message: expect.stringMatching(
        /^This password reset link expired at \d{1,2}:\d{2} [ap]m, \d{2}-\d{2}-\d{4} \(Nigerian time\)\. Ask for a new one on the Forgot Password page\.$/,
      ),
      fields: { next: "forgot-password" },
    });
    // Completing it still answers as any bad link does: the page has already told the student.
    expect(
      (
        await (
          await complete({ uidb64: link.uidb64, token: link.token, password: "too-late-now" })
        ).json()
      ).error.message,
    ).toBe(NOT_VALID);
  });

  describe("the registry's activation links (decision 156)", () => {
    const activation = async (student: Awaited<ReturnType<typeof api.createStudent>>) => {
      const token = await api.db.transaction((tx) =>
        issueResetToken(tx, student, api.clock.now(), {
          lifetimeMinutes: 72 * 60,
          replacesEarlier: true,
          purpose: "activation",
        }),
      );
      return { uidb64: encodeUid(student.id), token: token! };
    };

    it("a link replaced by a newer one says so before any password is typed; the newer one works", async () => {
      const student = await api.createStudent({ email: "check-replaced@example.com" });
      const first = await activation(student);
      api.clock.advance(60_000);
      const second = await activation(student);
      const answer = await check(first);
      expect(answer.status).toBe(400);
      const { error } = await answer.json();
      expect(error).toMatchObject({
        message: expect.stringContaining(
          "This link no longer works: the registry sent a newer activation link at",
        ),
        fields: { next: "forgot-password" },
      });
      expect(error.message).toContain("It is in your newest e-mail from the college");
      expect((await check(second)).status).toBe(200);
    });

    it("an expired one says to use Forgot password, or only the registry when there is no e-mail address", async () => {
      const withMail = await api.createStudent({ email: "check-expired@example.com" });
      const withoutMail = await api.createStudent({ email: null });
      const links = [await activation(withMail), await activation(withoutMail)];
      api.clock.advance(72 * 3_600_000);
      const [mailed, shown] = await Promise.all(
        links.map(async (link) => (await (await check(link)).json()).error),
      );
      expect(mailed).toMatchObject({
        message: expect.stringContaining("This activation link expired at"),
        fields: { next: "forgot-password" },
      });
      expect(mailed.message).toContain(
        "Ask for a new link on the Forgot Password page with your e-mail address, or ask the registry to send one.",
      );
      expect(shown).toMatchObject({ fields: { next: "registry" } });
      expect(shown.message).toMatch(
        /This activation link expired at .*\. Ask the registry for a new one: they can give it to you in person\.$/,
      );
    });
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
    expect(answers[0]).toEqual({
      status: 400,
      body: expect.objectContaining({ error: expect.objectContaining({ message: NOT_VALID }) }),
    });
  });

  it.each([
    ["no fields", {}],
    ["no token", { uidb64: "MQ" }],
    ["an overlong token", { uidb64: "MQ", token: "t".repeat(201) }],
    ["a number for the token", { uidb64: "MQ", token: 42 }],
  ])("refuses %s with a 400 that asks for the mailed link", async (_case, json) => {
    const answer = await check(json);
    expect(answer.status).toBe(400);
    expect((await answer.json()).error.message).toBe(
      "Click on the verification link sent to your mail",
    );
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
