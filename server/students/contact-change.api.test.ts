import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import { accountChanges, students } from "../db/schema.ts";
import { BIODATA_LOCKED } from "../../common/students/biodata.ts";
import { createBiodataHarness, type BiodataHarness } from "./biodata.test-kit.ts";

// A fresh harness per test: each one changes who owns which phone number and address.
let h: BiodataHarness;
beforeEach(async () => {
  await h?.api.close();
  h = await createBiodataHarness();
});
afterAll(() => h.api.close());

const PASSWORD = { current_password: "demo1234" };
const NGOZI = "ngozi.eze@example.com";
const MUSA = { phone: "08037770002", email: "musa.bello@example.com" };

const auditTrail = (studentId: number) =>
  h.api.db
    .select()
    .from(accountChanges)
    .where(eq(accountChanges.studentId, studentId))
    .orderBy(asc(accountChanges.id));

const signedIn = async (token: string) =>
  (await h.api.request("/student/me", { token })).status === 200;

describe("changing the phone number: password, mailed link, then it takes effect", () => {
  it("waits for the link sent to the current address, then records, signs out others and notifies", async () => {
    const otherDevice = await h.api.signIn(h.me.phone);

    const response = await h.sendBiodata(h.me.id, { phone: "08037779999", ...PASSWORD });

    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.message).toBe(
      `Your other details are saved. To change your phone number, open the link we sent to ${NGOZI} within 60 minutes, while signed in.`,
    );
    expect(body.contact_change_pending).toBe(true);
    expect(body.data.phone).toBe(h.me.phone);
    const link = await h.mailedLink(NGOZI);
    expect(link).toMatch(/^http:\/\/localhost:4321\/biodata\/confirm\/[A-Za-z0-9_-]{43}$/);

    const confirmed = await h.confirmLink(link);

    expect(confirmed.status).toBe(200);
    expect((await confirmed.json()).data.phone).toBe("08037779999");
    await expect(h.api.signIn("08037779999")).resolves.toBeTruthy();
    expect(await signedIn(h.token)).toBe(true);
    expect(await signedIn(otherDevice)).toBe(false);
    expect(await auditTrail(h.me.id)).toEqual([
      expect.objectContaining({
        field: "phone",
        oldValue: h.me.phone,
        newValue: "08037779999",
        changedAt: h.api.clock.now(),
        clientAddress: "203.0.113.7",
      }),
    ]);
    const notices = (await h.sentMails()).filter((mail) => mail.subject.includes("was changed"));
    expect(notices.map((mail) => mail.to)).toEqual([NGOZI]);
    expect(notices[0]!.text).toContain(`Phone number: ${h.me.phone} → 08037779999`);
    expect(notices[0]!.text).toContain("15/01/2025 10:00 (Nigerian time)");
    expect(notices[0]!.text).toContain("http://localhost:4321/reset-password");
    expect(notices[0]!.text).toContain("support@college.test");
  });
});

describe("changing the e-mail address: the link goes to the new address", () => {
  it("mails the notice to the old address and the new one", async () => {
    const response = await h.sendBiodata(h.me.id, { email: "Ngozi.New@Example.org", ...PASSWORD });
    expect(response.status).toBe(200);
    expect((await h.sentMails()).map((mail) => mail.to)).toEqual(["ngozi.new@example.org"]);
    expect((await h.snapshot()).row!.email).toBe(NGOZI);

    const confirmed = await h.confirmLink(await h.mailedLink("ngozi.new@example.org"));

    expect(confirmed.status).toBe(200);
    expect((await h.snapshot()).row!.email).toBe("ngozi.new@example.org");
    const notices = (await h.sentMails()).filter((mail) => mail.subject.includes("was changed"));
    expect(notices.map((mail) => mail.to).sort()).toEqual([NGOZI, "ngozi.new@example.org"]);
    for (const notice of notices) {
      expect(notice.text).toContain(`E-mail address: ${NGOZI} → ngozi.new@example.org`);
    }
    expect(
      (await auditTrail(h.me.id)).map((row) => [row.field, row.oldValue, row.newValue]),
    ).toEqual([["email", NGOZI, "ngozi.new@example.org"]]);
  });
});

describe("another student's phone or e-mail cannot be told from a free one", () => {
  it.each<{ case: string; taken: Record<string, string>; free: Record<string, string> }>([
    { case: "phone", taken: { phone: MUSA.phone }, free: { phone: "08037778888" } },
    { case: "e-mail", taken: { email: MUSA.email }, free: { email: "free.address@example.com" } },
  ])("$case: same status, same body, same record afterwards", async ({ taken, free }) => {
    const answerTo = async (fields: Record<string, string>) => {
      const response = await h.sendBiodata(h.me.id, { ...fields, ...PASSWORD });
      const record = await h.api.request("/student/me", { token: h.token });
      return { status: response.status, body: await response.json(), after: await record.json() };
    };

    const forTaken = await answerTo(taken);
    const forFree = await answerTo(free);

    // The only difference is the address named when the e-mail itself is what changes.
    const sentTo = (fields: Record<string, string>) => fields.email ?? NGOZI;
    const neutral = (answer: typeof forTaken, fields: Record<string, string>) =>
      JSON.parse(JSON.stringify(answer).replaceAll(sentTo(fields), "<address>"));
    expect(neutral(forTaken, taken)).toEqual(neutral(forFree, free));
    expect(forTaken.status).toBe(200);
    expect((await h.sentMails()).map((mail) => mail.subject)).toEqual([
      "Confirm the change to your student portal account",
      "Confirm the change to your student portal account",
    ]);
  });

  it("refuses a taken phone only to whoever opens the link, spending it and changing nothing", async () => {
    await h.sendBiodata(h.me.id, { phone: MUSA.phone, ...PASSWORD });
    const link = await h.mailedLink(NGOZI);
    const before = await h.snapshot();

    const refused = await h.confirmLink(link);

    expect(refused.status).toBe(409);
    expect((await refused.json()).error.message).toBe(
      "That phone number is already used by another student's account, so it cannot be yours as well. Nothing was changed.",
    );
    expect(await h.snapshot()).toEqual(before);
    expect(await auditTrail(h.me.id)).toEqual([]);
    expect((await h.sentMails()).filter((mail) => mail.subject.includes("was changed"))).toEqual(
      [],
    );
    expect((await h.confirmLink(link)).status).toBe(400);
  });

  it("gives a free number to one of two students confirming it at once; the other gets 409", async () => {
    const otherToken = await h.api.signIn(MUSA.phone);
    await h.sendBiodata(h.me.id, { phone: "08037775555", ...PASSWORD });
    const myLink = await h.mailedLink(NGOZI);
    await h.sendBiodata(h.other.id, { phone: "08037775555", ...PASSWORD }, { token: otherToken });
    const otherLink = await h.mailedLink(MUSA.email);

    const responses = await Promise.all([
      h.confirmLink(myLink),
      h.confirmLink(otherLink, { token: otherToken }),
    ]);

    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    // The notice is queued with the change it reports: only the winner's is sent.
    const notices = (await h.sentMails()).filter((mail) => mail.subject.includes("was changed"));
    expect(notices).toHaveLength(1);
  });
});

describe("a confirmation link that cannot be used changes nothing", () => {
  const LINK_NOT_VALID =
    /^This confirmation link is not valid: it may have been used, have expired, have been replaced/;

  async function expectLinkRefused(response: Response, status: number, message: RegExp | string) {
    const body = await response.json();
    expect(response.status).toBe(status);
    if (typeof message === "string") expect(body.error.message).toBe(message);
    else expect(body.error.message).toMatch(message);
  }

  it.each([
    { case: "an unknown token", open: async () => h.confirmLink("A".repeat(43)) },
    {
      case: "a link opened after 60 minutes",
      open: async (link: string) => {
        h.api.clock.advance(60 * 60_000);
        return h.confirmLink(link);
      },
    },
    {
      case: "a link opened by another student",
      open: async (link: string) => h.confirmLink(link, { token: await h.api.signIn(MUSA.phone) }),
    },
    {
      case: "a link replaced by a newer request",
      open: async (link: string) => {
        await h.sendBiodata(h.me.id, { phone: "08037776666", ...PASSWORD });
        return h.confirmLink(link);
      },
    },
  ])("$case (400)", async ({ open }) => {
    await h.sendBiodata(h.me.id, { phone: "08037779999", ...PASSWORD });
    const link = await h.mailedLink(NGOZI);
    const mine = await h.snapshot();
    const others = await h.snapshot(h.other.id);

    const response = await open(link);

    await expectLinkRefused(response, 400, LINK_NOT_VALID);
    expect(await h.snapshot()).toEqual(mine);
    expect(await h.snapshot(h.other.id)).toEqual(others);
    expect(await auditTrail(h.me.id)).toEqual([]);
  });

  it("works once", async () => {
    await h.sendBiodata(h.me.id, { phone: "08037779999", ...PASSWORD });
    const link = await h.mailedLink(NGOZI);
    expect((await h.confirmLink(link)).status).toBe(200);
    const mailsAfterFirst = (await h.sentMails()).length;

    await expectLinkRefused(await h.confirmLink(link), 400, LINK_NOT_VALID);
    expect(await auditTrail(h.me.id)).toHaveLength(1);
    expect((await h.sentMails()).length).toBe(mailsAfterFirst);
  });

  it("is refused once the registry has locked the record (403)", async () => {
    await h.sendBiodata(h.me.id, { phone: "08037779999", ...PASSWORD });
    await h.api.db.update(students).set({ biodataLocked: true }).where(eq(students.id, h.me.id));
    const before = await h.snapshot();

    await expectLinkRefused(await h.confirmLink(await h.mailedLink(NGOZI)), 403, BIODATA_LOCKED);
    expect(await h.snapshot()).toEqual(before);
  });

  it("refuses a malformed token (400) and no session (401)", async () => {
    await expectLinkRefused(
      await h.confirmLink("short"),
      400,
      "Open the link we e-mailed you to confirm the change.",
    );
    const anonymous = await h.api.request("/student/contact-change/confirm", {
      method: "POST",
      json: { token: "A".repeat(43) },
    });
    expect(anonymous.status).toBe(401);
  });
});
