/**
 * The portal as several instances on one PostgreSQL (decision 131): two API processes and two
 * proxies, each started alone through its own entry point, as an operator would behind a load
 * balancer. Proxy A talks to API 1, proxy B to API 2, so which instance answers is known.
 * Runs only where a PostgreSQL server is configured (DATABASE_URL; CI has one).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePortBlock } from "../../scripts/bench/local-ports.ts";
import { makeImage } from "../../server/uploads/images.test-kit.ts";
import { STUDENT_KEEP_ALIVE_MS } from "./student-listener.ts";

const serverUrl = process.env.DATABASE_URL;
const root = path.resolve(import.meta.dirname, "../..");
const STUDENT = { username: "08030000001", password: "demo1234" };
const PAYER = { username: "08030000002", password: "demo1234" };

type Part = {
  name: string;
  script: string;
  env: Record<string, string>;
  child?: ChildProcess;
  output: string[];
};

function startPart(part: Part): Promise<void> {
  const child = spawn(process.execPath, [path.join(root, "runtime/serve", part.script)], {
    cwd: root,
    env: { ...process.env, ...part.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  part.child = child;
  part.output = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${part.name} did not start:\n${part.output.join("")}`)),
      60_000,
    );
    const onData = (chunk: Buffer) => {
      part.output.push(chunk.toString());
      if (/"message":"serving"/.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => part.output.push(chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${part.name} exited with ${code}:\n${part.output.join("")}`));
    });
  });
}

function stopPart(part: Part, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  const child = part.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.removeAllListeners("exit");
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}

describe.skipIf(!serverUrl)("several instances on one PostgreSQL", () => {
  const databaseName = `multi_instance_${randomBytes(4).toString("hex")}`;
  let admin: pg.Client;
  let database: pg.Client;
  let dataDir: string;
  let base: number;
  const parts: Record<"sandbox" | "api1" | "api2" | "proxyA" | "proxyB", Part> = {} as never;
  const origin = (proxy: "proxyA" | "proxyB") => `http://localhost:${parts[proxy].env.PORT}`;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    const url = new URL(serverUrl!);
    url.pathname = `/${databaseName}`;
    dataDir = await mkdtemp(path.join(tmpdir(), "portal-multi-"));
    base = await freePortBlock(9);
    const shared = {
      NODE_ENV: "development",
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      PROXY_SHARED_SECRET: randomBytes(32).toString("base64url"),
      // The public address is proxy A's: the sandbox's webhooks and the API's links go there.
      PUBLIC_ORIGIN: `http://localhost:${base}`,
      PORT: String(base),
      PAYSTACK_SANDBOX_PORT: String(base + 8),
      LOG_LEVEL: "info",
    };
    const proxy = (port: number, apiPort: number) => ({
      ...shared,
      PORT: String(port),
      PUBLIC_ORIGIN: `http://localhost:${port}`,
      API_URL: `http://127.0.0.1:${apiPort}`,
      // No page server: this test reads the API through the proxies.
      PAGES_URL: `http://127.0.0.1:${base + 7}`,
    });
    Object.assign(parts, {
      sandbox: { name: "Paystack sandbox", script: "paystack-sandbox.ts", env: shared, output: [] },
      // Each on a data folder of its own, as on machines of their own: nothing may be shared
      // but the database.
      api1: {
        name: "API 1",
        script: "api.ts",
        env: { ...shared, API_PORT: String(base + 1), DATA_DIR: path.join(dataDir, "api1") },
        output: [],
      },
      api2: {
        name: "API 2",
        script: "api.ts",
        env: { ...shared, API_PORT: String(base + 2), DATA_DIR: path.join(dataDir, "api2") },
        output: [],
      },
      proxyA: { name: "proxy A", script: "proxy.ts", env: proxy(base, base + 1), output: [] },
      proxyB: { name: "proxy B", script: "proxy.ts", env: proxy(base + 3, base + 2), output: [] },
    });
    // Both API instances at once on an empty database: migrations and the demo data must not race.
    await Promise.all(Object.values(parts).map(startPart));
    database = new pg.Client({ connectionString: url.toString() });
    await database.connect();
  }, 120_000);

  afterAll(async () => {
    try {
      await Promise.all(Object.values(parts).map((part) => stopPart(part)));
      await database?.end();
      await admin?.query(`drop database if exists ${databaseName} with (force)`);
      await admin?.end();
    } finally {
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  async function signIn(proxy: "proxyA" | "proxyB", who = STUDENT) {
    const response = await fetch(`${origin(proxy)}/api/student/uniben/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: origin(proxy) },
      body: JSON.stringify(who),
    });
    expect(response.status).toBe(200);
    // Students' connections outlive the time they spend reading a page (decision 112).
    expect(response.headers.get("keep-alive")).toBe(`timeout=${STUDENT_KEEP_ALIVE_MS / 1000}`);
    const body = (await response.json()) as { data: { tokens: { student: { id: number } } } };
    // Proxies behind one load balancer share the public address, so the browser sends the same
    // cookie to each; here each has its own port, so the test carries the cookie across.
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    return { cookie, studentId: body.data.tokens.student.id };
  }

  const call = (
    proxy: "proxyA" | "proxyB",
    cookie: string,
    pathname: string,
    init: RequestInit = {},
  ) =>
    fetch(`${origin(proxy)}${pathname}`, {
      ...init,
      headers: {
        cookie,
        origin: origin(proxy),
        "content-type": "application/json",
        ...init.headers,
      },
    });

  it("loads the demo data once although both API instances started on the empty database together", async () => {
    const { rows } = await database.query(
      "select count(*)::int as students from students where phone = $1",
      [STUDENT.username],
    );
    expect(rows[0].students).toBe(1);
  });

  it("keeps a student signed in through proxy A signed in through proxy B", async () => {
    const { cookie, studentId } = await signIn("proxyA");
    const profile = await call("proxyB", cookie, `/api/student/profile/${studentId}`);
    expect(profile.status).toBe(200);
    expect(await profile.text()).toContain("Okonkwo");
    const signedOut = await call("proxyB", cookie, "/logout", {
      method: "POST",
      redirect: "manual",
    });
    expect(signedOut.status).toBe(303);
    await expect
      .poll(
        async () => (await call("proxyA", cookie, `/api/student/profile/${studentId}`)).status,
        { timeout: 10_000 },
      )
      .toBe(401);
  });

  it("serves a passport photo uploaded through proxy A from proxy B", async () => {
    const { cookie, studentId } = await signIn("proxyA");
    const form = new FormData();
    form.append(
      "photo",
      new File([new Uint8Array(await makeImage(400, 500, "jpeg"))], "passport.jpg", {
        type: "image/jpeg",
      }),
    );
    const uploaded = await fetch(`${origin("proxyA")}/api/student/biodata-update/${studentId}`, {
      method: "PATCH",
      headers: { cookie, origin: origin("proxyA") },
      body: form,
    });
    expect(uploaded.status).toBe(200);
    const { data } = (await uploaded.json()) as { data: { photo: string } };
    const throughA = await call("proxyA", cookie, data.photo);
    const throughB = await call("proxyB", cookie, data.photo);
    expect(throughB.status).toBe(200);
    expect(throughB.headers.get("content-type")).toBe("image/jpeg");
    expect(
      Buffer.from(await throughB.arrayBuffer()).equals(Buffer.from(await throughA.arrayBuffer())),
    ).toBe(true);
  });

  it("credits a payment once when the webhook reaches API 1 while API 2 asks Paystack about it", async () => {
    const { cookie, studentId } = await signIn("proxyA", PAYER);
    const choice = { payment_option: "full", payment_level: 100, payment_session: "2024/2025" };
    const started = await call("proxyA", cookie, "/api/student/school-fee", {
      method: "POST",
      body: JSON.stringify({ student_id: studentId, ...choice }),
    });
    expect(started.status).toBe(200);
    const { authorization_url: checkout, reference } = (await started.json()) as {
      authorization_url: string;
      reference: string;
    };

    // The checkout's Pay sends the webhook to the public address (proxy A, API 1) and, without
    // waiting for it, sends the student back, whose page asks API 2 to verify, several times.
    const paid = await fetch(`${checkout}/pay`, { method: "POST", redirect: "manual" });
    expect(paid.status).toBe(303);
    const verifications = await Promise.all(
      Array.from({ length: 4 }, () => call("proxyB", cookie, `/api/paystack/verify/${reference}`)),
    );
    for (const verification of verifications) expect(verification.status).toBeLessThan(500);

    await expect
      .poll(
        async () =>
          (await database.query("select status from payments where reference = $1", [reference]))
            .rows[0]?.status,
        { timeout: 15_000 },
      )
      .toBe("success");
    const credits = await database.query(
      "select count(*)::int as credits from payment_events e join payments p on p.id = e.payment_id where p.reference = $1 and e.kind = 'credited'",
      [reference],
    );
    expect(credits.rows[0].credits).toBe(1);
  }, 30_000);

  it("keeps serving through one instance while the other is killed, and sends the mail a killed instance queued", async () => {
    const { cookie, studentId } = await signIn("proxyA");
    // Students keep reading through proxy A, ten at a time, before, during and after the kill.
    let reading = true;
    const statusesThroughA: number[] = [];
    const readers = Array.from({ length: 10 }, async () => {
      while (reading)
        statusesThroughA.push(
          (await call("proxyA", cookie, `/api/student/profile/${studentId}`)).status,
        );
    });

    const subject = `Hostel allocation ${randomBytes(3).toString("hex")}`;
    const complaint = await call("proxyB", cookie, "/api/complaint/", {
      method: "POST",
      body: JSON.stringify({
        subject,
        message: "My hostel allocation is missing from my dashboard.",
      }),
    });
    expect(complaint.status).toBe(201);
    // At once: API 2 queued the support desk's copy in the complaint's transaction and dies
    // before its worker, polling every two seconds, can take the job.
    await stopPart(parts.api2, "SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    reading = false;
    await Promise.all(readers);
    expect(statusesThroughA.length).toBeGreaterThan(20);
    expect(statusesThroughA.filter((status) => status !== 200)).toEqual([]);
    expect(
      (await call("proxyB", cookie, `/api/student/profile/${studentId}`)).status,
    ).toBeGreaterThanOrEqual(500);

    await releaseMailTakenByTheKilled(subject);
    // API 1's worker takes the job API 2 left behind: the mail is in API 1's outbox.
    await expect
      .poll(async () => mailsMentioning(subject), { timeout: 20_000, interval: 500 })
      .toBe(1);

    // API 2 comes back and serves again, with the session it never saw before it died.
    await startPart(parts.api2);
    expect((await call("proxyB", cookie, `/api/student/profile/${studentId}`)).status).toBe(200);

    // Every instance down at once, right after a complaint: its copy waits in the database and
    // goes out when an instance starts again.
    const afterOutage = `Lecture timetable ${randomBytes(3).toString("hex")}`;
    const second = await call("proxyA", cookie, "/api/complaint/", {
      method: "POST",
      body: JSON.stringify({
        subject: afterOutage,
        message: "The timetable on the notice board differs from the portal's.",
      }),
    });
    expect(second.status).toBe(201);
    await Promise.all([stopPart(parts.api1, "SIGKILL"), stopPart(parts.api2, "SIGKILL")]);
    await releaseMailTakenByTheKilled(afterOutage);
    await startPart(parts.api1);
    await expect
      .poll(async () => mailsMentioning(afterOutage), { timeout: 20_000, interval: 500 })
      .toBe(1);
  }, 120_000);

  /**
   * A worker polls every two seconds, so a killed instance may have taken a mail's job in the
   * moment before the kill (a busy machine makes that moment long). pg-boss gives such a job to
   * another worker once it expires, five minutes for mail; what that expiry does is done here at
   * once, so the test need not wait for it.
   */
  async function releaseMailTakenByTheKilled(text: string) {
    await database.query(
      `update pgboss.job set state = 'retry', start_after = now()
        where name = 'send-mail' and state = 'active' and data::text like $1`,
      [`%${text}%`],
    );
  }

  /** Mails in either instance's outbox (development mail is a folder per machine). */
  async function mailsMentioning(text: string) {
    let found = 0;
    for (const instance of ["api1", "api2"]) {
      const outbox = path.join(dataDir, instance, "outbox");
      const files = await readdir(outbox).catch(() => [] as string[]);
      const contents = await Promise.all(
        files.map((file) => readFile(path.join(outbox, file), "utf8")),
      );
      found += contents.filter((content) => content.includes(text)).length;
    }
    return found;
  }
});
