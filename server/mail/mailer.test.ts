import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSmtpMailer } from "./mailer.ts";
import { startTestSmtpServer, type TestSmtpServer } from "./smtp-server.test-kit.ts";

const from = "Federal College of Education <noreply@fce.test>";
const resetLink = "http://localhost:4321/password/reset/MQ/abc-123";

describe("createSmtpMailer against a real SMTP server", () => {
  let smtp: TestSmtpServer;
  beforeEach(async () => {
    smtp = await startTestSmtpServer();
  });
  afterEach(async () => {
    await smtp.close();
  });

  it("delivers recipient, subject and a link in the text body intact", async () => {
    const mailer = createSmtpMailer({ url: smtp.url, from });
    await mailer.send({
      to: "ada.okafor@student.test",
      subject: "Reset your portal password",
      text: `Hello Ada,\n\nTo choose a new password, open ${resetLink}\n\nIf you did not ask, ignore this.`,
    });

    const mail = await smtp.waitForMessage();
    expect(mail.to).toEqual(["ada.okafor@student.test"]);
    expect(mail.from).toBe("noreply@fce.test");
    expect(mail.subject).toBe("Reset your portal password");
    expect(mail.text).toContain(`open ${resetLink}\n`);
  });

  it("keeps a long link readable although quoted-printable breaks the line", async () => {
    const longLink = `${resetLink}/${"a1b2c3d4".repeat(12)}`;
    const mailer = createSmtpMailer({ url: smtp.url, from });
    await mailer.send({ to: "bello@student.test", subject: "Link", text: `Open ${longLink} — ₦` });

    const mail = await smtp.waitForMessage((received) =>
      received.to.includes("bello@student.test"),
    );
    expect(mail.raw).toMatch(/=\r?\n/); // the soft line break the helper has to undo
    expect(mail.text.match(/https?:\/\/\S+/)?.[0]).toBe(longLink);
    expect(mail.text).toContain("— ₦");
  });

  it("sends the HTML alternative and Reply-To, and signs in when the URL has credentials", async () => {
    const url = smtp.url.replace("smtp://", "smtp://portal:s3cret@");
    const mailer = createSmtpMailer({ url, from });
    await mailer.send({
      to: "chioma@student.test",
      subject: "Complaint received",
      text: "We got it.",
      html: "<p>We got it.</p>",
      replyTo: "bursary@fce.test",
    });

    const mail = await smtp.waitForMessage();
    expect(mail.html).toBe("<p>We got it.</p>");
    expect(mail.headers.get("reply-to")).toBe("bursary@fce.test");
  });
});

describe("createSmtpMailer failures", () => {
  const servers: Array<Server | SMTPServer> = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
  });

  async function listen(server: Server | SMTPServer): Promise<number> {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const tcp: Server = server instanceof SMTPServer ? server.server : server;
    return (tcp.address() as AddressInfo).port;
  }

  it("rejects for a closed port without revealing the password", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));

    const mailer = createSmtpMailer({
      url: `smtp://user:s3cret@127.0.0.1:${closedPort}`,
      from,
      timeoutMs: 1_000,
    });
    const error = await mailer.send({ to: "a@b.test", subject: "x", text: "x" }).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain(`127.0.0.1:${closedPort}`);
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain("s3cret");
  });

  it("gives up on a server that never greets within the time-out", async () => {
    const port = await listen(createServer(() => {})); // accepts, then says nothing
    const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from, timeoutMs: 300 });

    const started = Date.now();
    await expect(mailer.send({ to: "a@b.test", subject: "x", text: "x" })).rejects.toThrow(
      /Could not send mail through SMTP 127\.0\.0\.1/,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it.each([
    ["plain", "s3cret", "s3cret"],
    ["percent-encoded", "p%40ss%2Fword", "p@ss/word"],
  ])("redacts a %s password that the server echoes back", async (_kind, inUrl, decoded) => {
    const server = new SMTPServer({
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        callback(new Error(`Password ${auth.password} is wrong for ${auth.username}`));
      },
    });
    const port = await listen(server);
    const mailer = createSmtpMailer({ url: `smtp://portal:${inUrl}@127.0.0.1:${port}`, from });

    const error = await mailer.send({ to: "a@b.test", subject: "x", text: "x" }).catch((e) => e);
    expect(error.message).toContain("Password *** is wrong for portal");
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(decoded);
  });
});

describe("createSmtpMailer configuration", () => {
  it.each([
    ["smtp://user:s3cret@smtp.example.org:587", "SMTP smtp.example.org:587"],
    ["smtp://smtp.example.org", "SMTP smtp.example.org:587"],
    ["smtps://user:s3cret@mail.example.org", "SMTPS mail.example.org:465"],
  ])("describes %s as %s", (url, description) => {
    expect(createSmtpMailer({ url, from }).describe()).toBe(description);
  });

  it.each(["http://user:s3cret@smtp.example.org", "smtp://user:s3cret@[bad"])(
    "refuses %s without repeating the password",
    (url) => {
      expect(() => createSmtpMailer({ url, from })).toThrow(/SMTP_URL/);
      expect(() => createSmtpMailer({ url, from })).not.toThrow(/s3cret/);
    },
  );
});
