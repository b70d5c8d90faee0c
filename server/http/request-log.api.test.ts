import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createApiHarness,
  TEST_PROXY_SECRET,
  type ApiHarness,
} from "../testing/api-harness.test-kit.ts";
import {
  createLogger,
  createMemoryLogger as createMemoryLoggerAt,
} from "../../common/log/logger.server.ts";
import { PROXY_SECRET_HEADER } from "../../common/http/proxy-secret.ts";
import type { ApiEnv } from "./context.ts";
import { handleError } from "./errors.ts";
import { logRequests } from "./request-log.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PROXY_ID = "6f1d2c3b-4a59-4e87-9d6c-5b4a3f2e1d0c";

/** The real pino logger, writing into memory through a destination stream. */
function capturedLogger() {
  const lines: string[] = [];
  const logger = createLogger({
    name: "api",
    level: "info",
    destination: { write: (line: string) => void lines.push(line) },
  });
  return {
    logger,
    output: () => lines.join(""),
    lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

// A student whose phone, e-mail and password must never reach a log, in the forms they are sent.
const PHONE = "08031234567";
const EMAIL = "Ngozi.Eze@example.com";
const PASSWORD = "correct-horse-battery-9";
const FORMS_OF_PERSONAL_DATA = [
  PHONE,
  "8031234567",
  "0803 123 4567",
  EMAIL,
  EMAIL.toLowerCase(),
  PASSWORD,
  "wrong-guess-7",
  "phone=",
  "email=",
];

let api: ApiHarness;
let capture: ReturnType<typeof capturedLogger>;

beforeAll(async () => {
  capture = capturedLogger();
  api = await createApiHarness({ logger: capture.logger });
  await api.createStudent({ phone: PHONE, email: EMAIL, password: PASSWORD });
});
afterAll(() => api.close());

describe("the API's request log (decision 125)", () => {
  it("writes one line per request and leaves out phones, e-mails, passwords and query strings", async () => {
    const refused = await api.request("/student/uniben/login", {
      method: "POST",
      json: { username: "0803 123 4567", password: "wrong-guess-7" },
    });
    expect(refused.status).toBe(401);
    const token = await api.signIn(PHONE, PASSWORD);
    const me = await api.request(`/student/me?phone=${PHONE}&email=${encodeURIComponent(EMAIL)}`, {
      token,
    });
    expect(me.status).toBe(200);
    const reset = await api.request("/password/request-reset-email/", {
      method: "POST",
      json: { email: EMAIL.toUpperCase(), redirect_url: "http://localhost:4321/password/reset" },
    });
    expect(reset.status).toBe(200);

    const requests = capture.lines().filter((line) => line.message === "request");
    expect(requests.map((line) => [line.method, line.route, line.status])).toEqual([
      ["POST", "/student/uniben/login", 401],
      ["POST", "/student/uniben/login", 200],
      ["GET", "/student/me", 200],
      ["POST", "/password/request-reset-email/", 200],
    ]);
    for (const line of requests) {
      expect(line).toMatchObject({
        level: "info",
        name: "api",
        requestId: expect.stringMatching(UUID),
        durationMs: expect.any(Number),
      });
    }
    // The refusal was logged too, under the id of the request that caused it.
    const refusal = capture.lines().find((line) => line.message === "sign-in refused");
    expect(refusal?.requestId).toBe(refused.headers.get("x-request-id"));

    const output = capture.output();
    for (const personal of FORMS_OF_PERSONAL_DATA) expect(output).not.toContain(personal);
  });

  it("answers with the request's id, and uses the proxy's only when the proxy's secret comes with it", async () => {
    const idOf = async (headers: Record<string, string>) => {
      const response = await api.app.request("/student/me", { headers });
      const id = response.headers.get("x-request-id");
      const line = capture.lines().findLast((entry) => entry.message === "request");
      expect(line?.requestId).toBe(id);
      return id;
    };
    expect(await idOf({ "x-request-id": PROXY_ID, [PROXY_SECRET_HEADER]: TEST_PROXY_SECRET })).toBe(
      PROXY_ID,
    );
    // Anyone else could name an id to mix their lines into another student's request.
    const untrusted: Record<string, string>[] = [
      { "x-request-id": PROXY_ID },
      { "x-request-id": PROXY_ID, [PROXY_SECRET_HEADER]: "a-guess-at-the-secret-0123456789abcdef" },
      { "x-request-id": 'not-a-uuid {"level":"error"}', [PROXY_SECRET_HEADER]: TEST_PROXY_SECRET },
      {},
    ];
    for (const headers of untrusted) {
      const id = await idOf(headers);
      expect(id).toMatch(UUID);
      expect(id).not.toBe(PROXY_ID);
    }
  });

  it("writes a request handed over in-process by a part that logs it (the proxy, a page) at debug, not at info", async () => {
    const before = capture.lines().length;
    const handedOver = await api.app.request("/student/me", {}, { loggedByCaller: true });
    expect(handedOver.headers.get("x-request-id")).toMatch(UUID);
    expect(capture.lines().slice(before)).toEqual([]);

    const debugCapture = createMemoryLoggerAt("debug");
    const app = new Hono<ApiEnv>();
    app.use(logRequests({ logger: debugCapture }));
    app.get("/ping", (c) => c.text("pong"));
    await app.request("/ping", {}, { loggedByCaller: true });
    await app.request("/ping");
    const levels = debugCapture.lines.map((line) => (JSON.parse(line) as { level: string }).level);
    expect(levels).toEqual(["debug", "info"]);
  });
});

describe("an unexpected error (decision 125)", () => {
  it("is logged with its stack and the request's id, scrubbed, and the student is given that id", async () => {
    const { logger, output, lines } = capturedLogger();
    const app = new Hono<ApiEnv>();
    app.use(logRequests({ logger }));
    app.get("/student/contact", () => {
      // What a driver's error looks like: the failed query's parameters in its message.
      throw new Error(
        "Failed query: select * from students where phone = $1\nparams: 08031234567,ngozi.eze@example.com",
        {
          cause: new Error(
            `duplicate key value: Key (lower(email))=(${EMAIL.toLowerCase()}) already exists.`,
          ),
        },
      );
    });
    app.onError(handleError);

    const response = await app.request("/student/contact?email=ngozi.eze%40example.com");
    const requestId = response.headers.get("x-request-id")!;
    expect(response.status).toBe(500);
    expect((await response.json()).error.message).toBe(
      `Something went wrong on our side. Please try again. If it happens again, tell the help desk this reference: ${requestId}.`,
    );
    const error = lines().find((line) => line.level === "error");
    expect(error).toMatchObject({ message: "unhandled error", requestId });
    expect(error?.error).toMatch(
      /^Error: Failed query: select \* from students where phone = \$1\nparams: \[redacted\]\n\s+at /,
    );
    expect(error?.error).toContain("caused by: Error: duplicate key value");
    expect(lines().find((line) => line.message === "request")).toMatchObject({
      requestId,
      route: "/student/contact",
      status: 500,
    });
    for (const personal of FORMS_OF_PERSONAL_DATA) expect(output()).not.toContain(personal);
    expect(output()).not.toContain("ngozi.eze");
  });
});
