import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";
import { serve, type ServerType } from "@hono/node-server";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleProxyWorker } from "../scripts/build-worker.ts";
import { rateLimits } from "../server/db/schema.ts";
import { SESSION_COOKIE } from "../common/session/cookie.ts";
import {
  createApiHarness,
  TEST_PROXY_SECRET,
  type ApiHarness,
} from "../server/testing/api-harness.test-kit.ts";

// The proxy bundled as a worker and run by workerd (through miniflare), in front of the API and
// the built page server on Node, each on its own socket: a deployment with the proxy at the edge
// (decision 127). The test plays Cloudflare's part by sending cf-connecting-ip itself.

const root = path.resolve(import.meta.dirname, "..");
const pagesEntry = path.join(root, "dist/server/entry.mjs");
const STUDENT = { phone: "08030000001", password: "demo1234" };
const CLIENT_ADDRESS = "203.0.113.9";

let api: ApiHarness;
let apiServer: ServerType;
let pages: ChildProcess;
let worker: Miniflare;
let origin: string;

beforeAll(async () => {
  if (!existsSync(pagesEntry)) {
    throw new Error(
      "No page server build in dist/: run `npm run test:built`, which runs `astro build` first.",
    );
  }
  const [workerSource, proxyPort] = await Promise.all([bundleProxyWorker(), reservePort()]);
  origin = `http://127.0.0.1:${proxyPort.port}`;

  api = await createApiHarness({ publicOrigin: origin });
  // The first demo student as the seed makes her (README's table), at the tests' password cost.
  await api.createStudent({
    phone: STUDENT.phone,
    title: "Miss",
    surname: "Okonkwo",
    othername: "Chiamaka Grace",
  });
  apiServer = serve({ fetch: api.app.fetch, hostname: "127.0.0.1", port: 0 });
  await new Promise((resolve) => apiServer.once("listening", resolve));
  const apiUrl = `http://127.0.0.1:${(apiServer.address() as AddressInfo).port}`;

  pages = startPageServer({
    API_URL: apiUrl,
    PUBLIC_ORIGIN: origin,
    PROXY_SHARED_SECRET: TEST_PROXY_SECRET,
  });
  const pagesUrl = await listeningAt(pages);

  // Held until now, so the API's and the page server's own ports cannot be the same number.
  await proxyPort.release();
  worker = new Miniflare({
    modules: [
      { type: "ESModule", path: path.join(root, "dist/worker/proxy.mjs"), contents: workerSource },
    ],
    // No nodejs_compat flag: the proxy gets only what every worker has.
    compatibilityDate: "2026-04-01",
    // Request.cf is miniflare's placeholder, not one fetched from Cloudflare: no network here.
    cf: false,
    host: "127.0.0.1",
    port: proxyPort.port,
    bindings: {
      PUBLIC_ORIGIN: origin,
      API_URL: apiUrl,
      PAGES_URL: pagesUrl,
      PROXY_SHARED_SECRET: TEST_PROXY_SECRET,
      CLIENT_ADDRESS_HEADER: "cf-connecting-ip",
    },
  });
  await worker.ready;
});

afterAll(async () => {
  await worker?.dispose();
  if (pages && pages.exitCode === null && pages.signalCode === null) {
    const exited = new Promise((resolve) => pages.once("exit", resolve));
    pages.kill("SIGTERM");
    await exited;
  }
  await new Promise((resolve) => (apiServer ? apiServer.close(resolve) : resolve(undefined)));
  await api?.close();
});

/** What a browser sends from the portal's own page, arriving through Cloudflare's edge. */
const fromTheEdge = (headers: Record<string, string> = {}) => ({
  origin,
  "cf-connecting-ip": CLIENT_ADDRESS,
  // Written by the client, so never believed: only the CDN's header counts.
  "x-forwarded-for": "198.51.100.23",
  ...headers,
});

function signIn(password: string) {
  return fetch(`${origin}/login`, {
    method: "POST",
    headers: fromTheEdge({ "content-type": "application/x-www-form-urlencoded" }),
    body: new URLSearchParams({ username: STUDENT.phone, password }),
    redirect: "manual",
  });
}

describe("the proxy on workerd, in front of the API and pages on Node", () => {
  let sessionCookie: string;

  it("refuses a wrong password, counted against the address the CDN's header gives", async () => {
    const response = await signIn("not-the-password");

    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/login?error=wrong");
    // No session: only the typed phone number, for the form to show again (decision 146).
    expect(response.headers.getSetCookie().map((cookie) => cookie.split("=")[0])).toEqual([
      "portal_typed_phone",
    ]);
    const keys = (await api.db.select({ key: rateLimits.key }).from(rateLimits)).map(
      (row) => row.key,
    );
    expect(keys).toContain(`login:client:${CLIENT_ADDRESS}`);
    expect(
      keys.filter((key) => key.includes("198.51.100.23") || key.includes("127.0.0.1")),
    ).toEqual([]);
  });

  it("signs the student in on the form: the token in an HttpOnly cookie", async () => {
    const response = await signIn(STUDENT.password);

    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
    const session = response.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
    expect(session).toMatch(new RegExp(`^${SESSION_COOKIE}=[^;]{20,};`));
    expect(session).toContain("HttpOnly");
    expect(session).toContain("SameSite=Lax");
    sessionCookie = session!.split(";")[0]!;
  });

  it("serves her dashboard, rendered by the page server, with the security headers", async () => {
    const response = await fetch(`${origin}/`, {
      headers: fromTheEdge({ cookie: sessionCookie }),
      redirect: "manual",
    });

    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Welcome, Chiamaka Grace");
    expect(html).toContain("Okonkwo");
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    // The page's own policy (with the hashes of its inline scripts), passed on, not replaced.
    expect(response.headers.get("content-security-policy")).toMatch(/script-src [^;]*'sha256-/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(response.headers.get("referrer-policy")).toBe("same-origin");
    expect(response.headers.get("permissions-policy")).toContain("camera=()");
  });

  it("passes a built script on byte for byte, compressed once", async () => {
    const script = readdirSync(path.join(root, "dist/client/_astro")).find(
      (name) => name.startsWith("client.") && name.endsWith(".js"),
    )!;
    const response = await fetch(`${origin}/_astro/${script}`, {
      headers: { "accept-encoding": "gzip, deflate, br, zstd" },
    });

    expect(response.status).toBe(200);
    // Miniflare, like Cloudflare's edge, may recompress as brotli for a client that takes it.
    expect(response.headers.get("content-encoding")).toMatch(/^(gzip|br)$/);
    // Compared by digest: a diff of two 200 KB buffers would take the test minutes to print.
    const sent = readFileSync(path.join(root, "dist/client/_astro", script));
    expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(sha256(sent));
  });

  it("relays her API calls with the token taken from the cookie", async () => {
    const response = await fetch(`${origin}/api/student/me`, {
      headers: fromTheEdge({ cookie: sessionCookie }),
    });

    expect(response.status).toBe(200);
    expect((await response.json()).data).toMatchObject({
      phone: STUDENT.phone,
      surname: "Okonkwo",
    });
  });

  it("signs her out: the cookie is cleared and the dashboard sends her to sign in", async () => {
    const signOut = await fetch(`${origin}/logout`, {
      method: "POST",
      headers: fromTheEdge({ cookie: sessionCookie }),
      redirect: "manual",
    });
    expect(signOut.status).toBe(303);
    expect(signOut.headers.getSetCookie()).toContainEqual(
      expect.stringMatching(new RegExp(`^${SESSION_COOKIE}=; Max-Age=0`)),
    );

    const dashboard = await fetch(`${origin}/`, {
      headers: fromTheEdge({ cookie: sessionCookie }),
      redirect: "manual",
    });
    expect(dashboard.status).toBe(302);
    expect(dashboard.headers.get("location")).toMatch(/^\/login/);
  });
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * A port on 127.0.0.1, held open until `release()`: the worker must know its own origin before it
 * starts. Released at once, the same number was once handed to the API server's port 0 meanwhile,
 * and the worker could not bind it.
 */
function reservePort() {
  return new Promise<{ port: number; release(): Promise<void> }>((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      resolve({ port, release: () => new Promise<void>((done) => probe.close(() => done())) });
    });
    probe.once("error", reject);
  });
}

/** The built page server as `node dist/server/entry.mjs` runs it alone, on a port it picks. */
function startPageServer(env: Record<string, string>) {
  return spawn(process.execPath, [pagesEntry], {
    cwd: root,
    env: { ...process.env, ...env, HOST: "127.0.0.1", PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** The address the page server says it listens on, once it says so. */
function listeningAt(child: ChildProcess) {
  return new Promise<string>((resolve, reject) => {
    let output = "";
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (listening) resolve(listening[1]!);
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) =>
      reject(new Error(`The page server stopped (code ${code}):\n${output}`)),
    );
  });
}
