import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import { accountChanges, students } from "../db/schema.ts";
import { BIODATA_LOCKED } from "../../common/students/biodata.ts";
import { createBiodataHarness, type BiodataHarness, type StudentPair } from "./biodata.test-kit.ts";

// One harness for the file, and students of its own for each test: each test changes who owns
// which phone number and address, so it takes numbers and addresses no other test uses.
let h: BiodataHarness;
let s: StudentPair;
beforeAll(async () => {
  h = await createBiodataHarness();
});
afterAll(() => h?.api.close());
beforeEach(async () => {
  s = await h.addStudents();
});

const PASSWORD = { current_password: "demo1234" };

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
    const newPhone = s.phone("9999");
    const otherDevice = await h.api.signIn(s.me.phone);

    const response = await s.sendBiodata(s.me.id, { phone: newPhone, ...PASSWORD });

    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.message).toBe(
      `Your other details are saved. To change your phone number, open the link we sent to ${s.me.email} within 60 minutes, while signed in.`,
    );
    expect(body.contact_change_pending).toBe(true);
    expect(body.data.phone).toBe(s.me.phone);
    const link = await s.mailedLink(s.me.email);
    expect(link).toMatch(/^http:\/\/localhost:4321\/biodata\/confirm\/[A-Za-z0-9_-]{43}$/);

    const confirmed = await s.confirmLink(link);

    expect(confirmed.status).toBe(200);
    expect((await confirmed.json()).data.phone).toBe(newPhone);
    await expect(h.api.signIn(newPhone)).resolves.toBeTruthy();
    expect(await signedIn(s.token)).toBe(true);
    expect(await signedIn(otherDevice)).toBe(false);
    expect(await auditTrail(s.me.id)).toEqual([
      expect.objectContaining({
        field: "phone",
        oldValue: s.me.phone,
        newValue: newPhone,
        changedAt: h.api.clock.now(),
        clientAddress: "203.0.113.7",
      }),
    ]);
    const notices = (await s.sentMails()).filter((mail) => mail.subject.includes("was changed"));
    expect(notices.map((mail) => mail.to)).toEqual([s.me.email]);
    expect(notices[0]!.text).toContain(`Phone number: ${s.me.phone} → ${newPhone}`);
    // The harness clock's start, 09:00 UTC: a test that moves the clock puts it back.
    expect(notices[0]!.text).toContain("15/01/2025 10:00 (Nigerian time)");
    expect(notices[0]!.text).toContain("http://localhost:4321/reset-password");
    expect(notices[0]!.text).toContain("support@college.test");
  });
});

describe("changing the e-mail address: the link goes to the new address", () => {
  it("mails the notice to the old address and the new one", async () => {
    const typed = s.address("Ngozi.New", "Example.org");
    const newAddress = typed.toLowerCase();
    const response = await s.sendBiodata(s.me.id, { email: typed, ...PASSWORD });
    expect(response.status).toBe(200);
    expect((await s.sentMails()).map((mail) => mail.to)).toEqual([newAddress]);
    expect((await s.snapshot()).row!.email).toBe(s.me.email);

    const confirmed = await s.confirmLink(await s.mailedLink(newAddress));

    expect(confirmed.status).toBe(200);
    expect((await s.snapshot()).row!.email).toBe(newAddress);
    const notices = (await s.sentMails()).filter((mail) => mail.subject.includes("was changed"));
    expect(notices.map((mail) => mail.to).sort()).toEqual([s.me.email, newAddress].sort());
    for (const notice of notices) {
      expect(notice.text).toContain(`E-mail address: ${s.me.email} → ${newAddress}`);
    }
    expect(
      (await auditTrail(s.me.id)).map((row) => [row.field, row.oldValue, row.newValue]),
    ).toEqual([["email", s.me.email, newAddress]]);
  });
});

describe("another student's phone or e-mail cannot be told from a free one", () => {
  it.each<{
    case: string;
    taken: () => Record<string, string>;
    free: () => Record<string, string>;
  }>([
    {
      case: "phone",
      taken: () => ({ phone: s.other.phone }),
      free: () => ({ phone: s.phone("8888") }),
    },
    {
      case: "e-mail",
      taken: () => ({ email: s.other.email }),
      free: () => ({ email: s.address("free.address") }),
    },
  ])("$case: same status, same body, same record afterwards", async (fieldsFor) => {
    const taken = fieldsFor.taken();
    const free = fieldsFor.free();
    const answerTo = async (fields: Record<string, string>) => {
      const response = await s.sendBiodata(s.me.id, { ...fields, ...PASSWORD });
      const record = await h.api.request("/student/me", { token: s.token });
      return { status: response.status, body: await response.json(), after: await record.json() };
    };

    const forTaken = await answerTo(taken);
    const forFree = await answerTo(free);

    // The only difference is the address named when the e-mail itself is what changes.
    const sentTo = (fields: Record<string, string>) => fields.email ?? s.me.email;
    const neutral = (answer: typeof forTaken, fields: Record<string, string>) =>
      JSON.parse(JSON.stringify(answer).replaceAll(sentTo(fields), "<address>"));
    expect(neutral(forTaken, taken)).toEqual(neutral(forFree, free));
    expect(forTaken.status).toBe(200);
    expect((await s.sentMails()).map((mail) => mail.subject)).toEqual([
      "Confirm the change to your student portal account",
      "Confirm the change to your student portal account",
    ]);
  });

  it("refuses a taken phone only to whoever opens the link, spending it and changing nothing", async () => {
    await s.sendBiodata(s.me.id, { phone: s.other.phone, ...PASSWORD });
    const link = await s.mailedLink(s.me.email);
    const before = await s.snapshot();

    const refused = await s.confirmLink(link);

    expect(refused.status).toBe(409);
    expect((await refused.json()).error.message).toBe(
      "That phone number is already used by another student's account, so it cannot be yours as well. Nothing was changed.",
    );
    expect(await s.snapshot()).toEqual(before);
    expect(await auditTrail(s.me.id)).toEqual([]);
    expect((await s.sentMails()).filter((mail) => mail.subject.includes("was changed"))).toEqual(
      [],
    );
    expect((await s.confirmLink(link)).status).toBe(400);
  });

  it("gives a free number to one of two students confirming it at once; the other gets 409", async () => {
    const freePhone = s.phone("5555");
    const otherToken = await h.api.signIn(s.other.phone);
    await s.sendBiodata(s.me.id, { phone: freePhone, ...PASSWORD });
    const myLink = await s.mailedLink(s.me.email);
    await s.sendBiodata(s.other.id, { phone: freePhone, ...PASSWORD }, { token: otherToken });
    const otherLink = await s.mailedLink(s.other.email);

    const responses = await Promise.all([
      s.confirmLink(myLink),
      s.confirmLink(otherLink, { token: otherToken }),
    ]);

    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    // The notice is queued with the change it reports: only the winner's is sent.
    const notices = (await s.sentMails()).filter((mail) => mail.subject.includes("was changed"));
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
    { case: "an unknown token", open: async () => s.confirmLink("A".repeat(43)) },
    {
      case: "a link opened after 60 minutes",
      open: async (link: string) => {
        h.api.clock.advance(60 * 60_000);
        try {
          return await s.confirmLink(link);
        } finally {
          // The clock is the file's: put back, no test depends on running before this one.
          h.api.clock.advance(-60 * 60_000);
        }
      },
    },
    {
      case: "a link opened by another student",
      open: async (link: string) =>
        s.confirmLink(link, { token: await h.api.signIn(s.other.phone) }),
    },
    {
      case: "a link replaced by a newer request",
      open: async (link: string) => {
        await s.sendBiodata(s.me.id, { phone: s.phone("6666"), ...PASSWORD });
        return s.confirmLink(link);
      },
    },
  ])("$case (400)", async ({ open }) => {
    await s.sendBiodata(s.me.id, { phone: s.phone("9999"), ...PASSWORD });
    const link = await s.mailedLink(s.me.email);
    const mine = await s.snapshot();
    const others = await s.snapshot(s.other.id);

    const response = await open(link);

    await expectLinkRefused(response, 400, LINK_NOT_VALID);
    expect(await s.snapshot()).toEqual(mine);
    expect(await s.snapshot(s.other.id)).toEqual(others);
    expect(await auditTrail(s.me.id)).toEqual([]);
  });

  it("works once", async () => {
    await s.sendBiodata(s.me.id, { phone: s.phone("9999"), ...PASSWORD });
    const link = await s.mailedLink(s.me.email);
    expect((await s.confirmLink(link)).status).toBe(200);
    const mailsAfterFirst = (await s.sentMails()).length;

    await expectLinkRefused(await s.confirmLink(link), 400, LINK_NOT_VALID);
    expect(await auditTrail(s.me.id)).toHaveLength(1);
    expect((await s.sentMails()).length).toBe(mailsAfterFirst);
  });

  it("is refused once the registry has locked the record (403)", async () => {
    await s.sendBiodata(s.me.id, { phone: s.phone("9999"), ...PASSWORD });
    await h.api.db.update(students).set({ biodataLocked: true }).where(eq(students.id, s.me.id));
    const before = await s.snapshot();

    await expectLinkRefused(
      await s.confirmLink(await s.mailedLink(s.me.email)),
      403,
      BIODATA_LOCKED,
    );
    expect(await s.snapshot()).toEqual(before);
  });

  it("refuses a malformed token (400) and no session (401)", async () => {
    await expectLinkRefused(
      await s.confirmLink("short"),
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
