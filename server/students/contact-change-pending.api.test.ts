import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBiodataHarness, type BiodataHarness } from "./biodata.test-kit.ts";

// The confirmation page names what its link would change before the student presses the button;
// asking changes nothing, and only the student who asked is told.

let h: BiodataHarness;
beforeAll(async () => {
  h = await createBiodataHarness();
});
afterAll(() => h.api.close());

const PASSWORD = { current_password: "demo1234" };
const NOT_VALID =
  "This confirmation link is not valid: it may have been used, have expired, have been replaced by a newer one or belong to another account. Change your phone number or e-mail on the Update Biodata page again.";

const tokenOf = (link: string) => /\/biodata\/confirm\/([A-Za-z0-9_-]{43})$/.exec(link)![1]!;
/** The newest confirmation link mailed (a notice of an earlier change may be the newest mail). */
const newestLink = async () =>
  (await h.sentMails())
    .map((mail) => /http\S+\/biodata\/confirm\/\S+/.exec(mail.text)?.[0])
    .findLast(Boolean)!;
const pending = (token: string, bearer: string | null = h.token) =>
  h.api.request("/student/contact-change/pending", {
    method: "POST",
    json: { token },
    ...(bearer ? { token: bearer } : {}),
  });

describe("POST /student/contact-change/pending", () => {
  it("names the new phone number and e-mail, and the link still confirms afterwards", async () => {
    expect(
      (
        await h.sendBiodata(h.me.id, {
          phone: "08037775555",
          email: "ngozi.next@example.org",
          ...PASSWORD,
        })
      ).status,
    ).toBe(200);
    const link = await h.mailedLink("ngozi.next@example.org");

    const answer = await pending(tokenOf(link));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      status: "success",
      data: { phone: "08037775555", email: "ngozi.next@example.org" },
    });
    expect((await h.snapshot()).row!.phone).toBe(h.me.phone);

    expect((await h.confirmLink(link)).status).toBe(200);
    const used = await pending(tokenOf(link));
    expect(used.status).toBe(400);
    expect((await used.json()).error.message).toBe(NOT_VALID);
  });

  it("gives null for the part that does not change", async () => {
    expect((await h.sendBiodata(h.me.id, { phone: "08037776666", ...PASSWORD })).status).toBe(200);
    const answer = await pending(tokenOf(await newestLink()));
    expect((await answer.json()).data).toEqual({ phone: "08037776666", email: null });
  });

  it("tells another signed-in student nothing: the same refusal as an unknown link", async () => {
    expect((await h.sendBiodata(h.me.id, { phone: "08037778888", ...PASSWORD })).status).toBe(200);
    const token = tokenOf(await newestLink());
    const someoneElse = await h.api.signIn(h.other.phone);

    const theirs = await pending(token, someoneElse);
    const unknown = await pending("A".repeat(43), someoneElse);
    expect(theirs.status).toBe(400);
    expect(await theirs.json()).toEqual(await unknown.json());
  });

  it("refuses an expired link", async () => {
    expect((await h.sendBiodata(h.me.id, { phone: "08037779191", ...PASSWORD })).status).toBe(200);
    const token = tokenOf(await newestLink());
    h.api.clock.advance(60 * 60_000);
    const answer = await pending(token);
    expect(answer.status).toBe(400);
    expect((await answer.json()).error.message).toBe(NOT_VALID);
  });

  it("needs a session, and a token of the right shape", async () => {
    expect((await pending("A".repeat(43), null)).status).toBe(401);
    const malformed = await pending("not a token");
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.message).toBe(
      "Open the link we e-mailed you to confirm the change.",
    );
  });
});
