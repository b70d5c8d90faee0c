import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOutboxMailer, readOutbox } from "./mailer.ts";
import { createOutboxPage } from "./outbox-page.ts";

const resetLink = "http://localhost:4321/password/reset/MQ/abc-123";

describe("outbox page", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "outbox-page-"));
    const mailer = createOutboxMailer({ dir, from: "noreply@fce.test" });
    await mailer.send({
      to: "ada@student.test",
      subject: "Reset your password",
      text: `Open ${resetLink}.\nNot this: javascript:alert(1)`,
    });
    await mailer.send({
      to: "bello@student.test",
      subject: "<script>alert('x')</script> & more",
      text: "Hi <b>Bello</b>",
      html: "<p onclick=\"alert('x')\">Hi</p>",
    });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function get(app: Hono, path: string) {
    const response = await app.request(path);
    return { status: response.status, headers: response.headers, body: await response.text() };
  }

  it("lists both messages, newest first, with time, recipient and text", async () => {
    const { status, headers, body } = await get(createOutboxPage({ dir }), "/");

    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/^text\/html/);
    expect(body).toContain("<h1>Mail outbox (development only)</h1>");
    const older = body.indexOf("Reset your password");
    const newer = body.indexOf("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more");
    expect(newer).toBeGreaterThan(-1);
    expect(older).toBeGreaterThan(newer);
    expect(body).toContain("to ada@student.test");
    expect(body).toMatch(/<time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">/);
    expect(body).toContain("Hi &lt;b&gt;Bello&lt;/b&gt;");
  });

  it("escapes HTML and links only http(s) addresses in the text", async () => {
    const { body } = await get(createOutboxPage({ dir }), "/");

    expect(body).not.toContain("<script>");
    expect(body).toContain(`<a href="${resetLink}">${resetLink}</a>.`);
    expect(body).toContain("javascript:alert(1)");
    expect(body).not.toMatch(/href="javascript:/i);
  });

  it("shows one message with its HTML version in a sandboxed frame", async () => {
    const app = createOutboxPage({ dir });
    const [newest] = await readOutbox(dir);
    const { status, body } = await get(app, `/${newest.id}`);

    expect(status).toBe(200);
    expect(body).toContain("<dd>bello@student.test</dd>");
    expect(body).toContain(
      `<iframe sandbox srcdoc="&lt;p onclick=&quot;alert(&#39;x&#39;)&quot;&gt;Hi&lt;/p&gt;"`,
    );
    expect(body).not.toContain("<p onclick");
  });

  it("answers 404 for an unknown or malformed id", async () => {
    const app = createOutboxPage({ dir });
    expect((await get(app, "/20000101T000000000Z-00000000")).status).toBe(404);
    expect((await get(app, "/..%2Fsecret")).status).toBe(404);
  });

  it("links between list and message wherever it is mounted", async () => {
    const app = new Hono().route("/dev/outbox", createOutboxPage({ dir }));
    const [newest] = await readOutbox(dir);

    const list = await get(app, "/dev/outbox");
    const href = list.body.match(/<h2><a href="([^"]+)"/)?.[1] ?? "";
    const messageUrl = new URL(href, "http://portal.test/dev/outbox");
    expect(messageUrl.pathname).toBe(`/dev/outbox/${newest.id}`);

    const message = await get(app, messageUrl.pathname);
    expect(message.status).toBe(200);
    const back = message.body.match(/<a href="([^"]+)">← All messages/)?.[1] ?? "";
    expect(new URL(back, messageUrl).pathname).toBe("/dev/outbox");
  });

  it("works without scripts: no script tags, only inline styles, a strict policy", async () => {
    const { body, headers } = await get(createOutboxPage({ dir }), "/");
    expect(body).not.toMatch(/<script|<link /);
    expect(headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(headers.get("cache-control")).toBe("no-store");
  });
});
