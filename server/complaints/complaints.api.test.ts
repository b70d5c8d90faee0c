import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { endMailBackOff, mailJobsTo } from "../testing/mail-jobs.test-kit.ts";
import { startTestSmtpServer, type TestSmtpServer } from "../mail/smtp-server.test-kit.ts";
import { createSmtpMailer, type Mailer } from "../mail/mailer.ts";
import { complaints } from "../db/schema.ts";

let api: ApiHarness;
let smtp: TestSmtpServer;
let mailer: Mailer;
let token: string;
let student: Awaited<ReturnType<ApiHarness["createStudent"]>>;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  mailer = createSmtpMailer({ url: smtp.url, from: "Portal <no-reply@college.test>" });
  // Tests swap `mailer` to make the mail server fail or hang; mail goes out on deliverMail().
  api = await createApiHarness({
    mailer: { send: (message) => mailer.send(message), describe: () => "switchable" },
  });
  student = await api.createStudent({
    phone: "08034445555",
    email: "ngozi.eze@example.com",
    surname: "Eze",
    othername: "Ngozi Adaeze",
    matricNo: "CCE/2023/ENG/0099",
  });
  token = await api.signIn(student.phone);
});
afterAll(async () => {
  await api.close();
  await smtp.close();
});

const send = (json: unknown, auth = token) =>
  api.request("/complaint/", { method: "POST", json, token: auth });
const stored = async () => (await api.db.select({ n: count() }).from(complaints))[0]!.n;

describe("POST /complaint/", () => {
  it("stores the complaint under the signed-in student and mails a copy to support", async () => {
    const response = await send({
      subject: "  Hostel water supply  ",
      message: "There has been no water in Block C since Monday.",
      name: "Someone Else",
      email: "attacker@example.net",
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({
      status: "success",
      message: "Successful! Complaint has been sent",
      data: { subject: "Hostel water supply" },
    });

    const [row] = await api.db.select().from(complaints).where(eq(complaints.id, body.data.id));
    expect(row).toMatchObject({
      studentId: student.id,
      subject: "Hostel water supply",
      message: "There has been no water in Block C since Monday.",
      name: "Eze Ngozi Adaeze",
      email: "ngozi.eze@example.com",
    });

    expect((await api.deliverMail()).sent).toBeGreaterThanOrEqual(1);
    const mail = await smtp.waitForMessage((m) => m.subject.includes("Hostel water supply"));
    expect(mail.to).toEqual(["support@college.test"]);
    expect(mail.subject).toBe(`Complaint ${row!.ticket}: Hostel water supply`);
    expect(mail.headers.get("reply-to")).toContain("ngozi.eze@example.com");
    expect(mail.text).toContain("There has been no water in Block C since Monday.");
    expect(mail.text).toContain("Name: Eze Ngozi Adaeze");
    expect(mail.text).toContain("Matric number: CCE/2023/ENG/0099");
    expect(mail.raw).not.toContain("attacker@example.net");
  });

  it("keeps the mail subject on one line whatever the student typed", async () => {
    const response = await send({
      subject: "Fees\r\nBcc: everyone@example.com",
      message: "Receipt missing.",
    });
    expect(response.status).toBe(201);
    await api.deliverMail();
    const mail = await smtp.waitForMessage((m) => m.text.includes("Receipt missing."));
    expect(mail.subject).toMatch(/^Complaint CMP-[A-Z2-9]{6}: Fees Bcc: everyone@example.com$/);
    expect(mail.to).toEqual(["support@college.test"]);
  });

  it.each([
    ["no fields", {}, "Enter a subject for your complaint."],
    ["no message", { subject: "Fees" }, "Write your complaint in the message box."],
    ["a blank subject", { subject: "   ", message: "Text" }, "Enter a subject for your complaint."],
    [
      "a blank message",
      { subject: "Fees", message: "\n \t" },
      "Write your complaint in the message box.",
    ],
    [
      "a subject that is not text",
      { subject: 42, message: "Text" },
      "Enter a subject for your complaint.",
    ],
    [
      "a 151-character subject",
      { subject: "s".repeat(151), message: "Text" },
      "Keep the subject to 150 characters or fewer.",
    ],
    [
      "a 5001-character message",
      { subject: "Fees", message: "m".repeat(5001) },
      "Keep the message to 5000 characters or fewer.",
    ],
  ])("refuses %s with a 400 and stores nothing", async (_case, json, message) => {
    const before = await stored();
    const response = await send(json);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(message);
    expect(await stored()).toBe(before);
  });

  it("accepts a subject and message exactly at the limits", async () => {
    const response = await send({ subject: "s".repeat(150), message: "m".repeat(5000) });
    expect(response.status).toBe(201);
  });

  it("refuses a body that is not JSON, and callers without a session", async () => {
    const before = await stored();
    const notJson = await api.request("/complaint/", {
      method: "POST",
      token,
      headers: { "content-type": "application/json" },
      body: "subject=Fees",
    });
    expect(notJson.status).toBe(400);
    expect((await send({ subject: "Fees", message: "Text" }, "")).status).toBe(401);
    expect((await send({ subject: "Fees", message: "Text" }, "x".repeat(43))).status).toBe(401);
    expect(await stored()).toBe(before);
  });

  it("keeps the complaint and its copy when the mail server refuses, and sends the copy on a later try", async () => {
    await api.deliverMail();
    mailer = {
      send: async () => Promise.reject(new Error("SMTP 554 relay refused")),
      describe: () => "down",
    };
    try {
      const response = await send({ subject: "Library card", message: "My card was not issued." });
      expect(response.status).toBe(201);
      const { data } = await response.json();
      const [row] = await api.db.select().from(complaints).where(eq(complaints.id, data.id));
      expect(row?.subject).toBe("Library card");

      expect(await api.deliverMail()).toEqual({ sent: 0, failed: 1 });
      const [job] = (await mailJobsTo(api.db, "support@college.test")).filter((each) =>
        each.data.subject.includes("Library card"),
      );
      expect(job).toMatchObject({ state: "retry", waits: true });
      expect(
        api.logger.lines.some(
          (line) =>
            line.includes("mail not sent; will retry") && line.includes("SMTP 554 relay refused"),
        ),
      ).toBe(true);
      // Nothing is due again before the back-off has passed.
      expect(await api.deliverMail()).toEqual({ sent: 0, failed: 0 });
    } finally {
      mailer = createSmtpMailer({ url: smtp.url, from: "Portal <no-reply@college.test>" });
    }
    await endMailBackOff(api.db);
    expect(await api.deliverMail()).toEqual({ sent: 1, failed: 0 });
    const mail = await smtp.waitForMessage((m) => m.text.includes("My card was not issued."));
    expect(mail.to).toEqual(["support@college.test"]);
  });

  it("answers without waiting for the mail server: the copy waits in the queue", async () => {
    await api.deliverMail();
    mailer = { send: () => new Promise(() => {}), describe: () => "hanging" };
    try {
      const started = performance.now();
      const response = await send({ subject: "Timetable", message: "Clash on Tuesday." });
      expect(response.status).toBe(201);
      expect(performance.now() - started).toBeLessThan(2_000);
      const queued = (await mailJobsTo(api.db, "support@college.test")).filter((job) =>
        job.data.subject.includes("Timetable"),
      );
      expect(queued.map((job) => job.state)).toEqual(["created"]);
    } finally {
      mailer = createSmtpMailer({ url: smtp.url, from: "Portal <no-reply@college.test>" });
    }
  });

  it("queues no copy for a complaint it refuses", async () => {
    const before = (await mailJobsTo(api.db, "support@college.test")).length;
    expect((await send({ subject: "Fees", message: "m".repeat(5001) })).status).toBe(400);
    expect(await mailJobsTo(api.db, "support@college.test")).toHaveLength(before);
  });
});

describe("complaint flood", () => {
  it("accepts 10 complaints an hour from one student, refuses the 11th with a 429, and stores nothing for it", async () => {
    const busy = await api.createStudent();
    const busyToken = await api.signIn(busy.phone);
    for (let n = 1; n <= 10; n++) {
      expect(
        (await send({ subject: `Issue ${n}`, message: "Please help." }, busyToken)).status,
      ).toBe(201);
    }
    const before = await stored();
    const refused = await send({ subject: "Issue 11", message: "Please help." }, busyToken);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await stored()).toBe(before);

    api.clock.advance(61 * 60_000);
    expect((await send({ subject: "Next hour", message: "Please help." }, busyToken)).status).toBe(
      201,
    );
  });
});
