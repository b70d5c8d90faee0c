import { describe, expect, it } from "vitest";
import { createLogger, withRequestId } from "./logger.server.ts";
import { logLevelOf } from "./log-level.ts";
import { loggablePath, scrubText } from "./scrub.ts";

/** A real logger whose lines land in memory through a pino destination stream. */
function captured(level: "info" | "warn" = "info") {
  const lines: string[] = [];
  const logger = createLogger({
    name: "test",
    level,
    destination: { write: (line: string) => void lines.push(line) },
  });
  return {
    logger,
    output: () => lines.join(""),
    parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

const PHONE = "08031234567";
const EMAIL = "ngozi.eze@example.com";
const PASSWORD = "correct-horse-battery-9";
const TOKEN = "tok_4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c";

describe("the logger leaves personal data out (decision 125)", () => {
  it("of a request logged with its URL, headers and body", () => {
    const { logger, output, parsed } = captured();
    logger.info("request", {
      method: "POST",
      url: `http://localhost:4321/student/me?phone=${PHONE}&email=${encodeURIComponent(EMAIL)}`,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        cookie: `portal_session=${TOKEN}`,
        "set-cookie": `portal_session=${TOKEN}`,
      },
      body: { username: "0803 123 4567", password: PASSWORD, email: EMAIL, newPassword: PASSWORD },
      note: `the student wrote from ${EMAIL.toUpperCase()} and +234 803 123 4567`,
    });
    const text = output();
    for (const personal of [
      PHONE,
      "803 123 4567",
      EMAIL,
      EMAIL.toUpperCase(),
      PASSWORD,
      TOKEN,
      "phone=",
      "email=",
    ]) {
      expect(text).not.toContain(personal);
    }
    // What is not personal stays, so the line is still worth reading.
    expect(parsed()[0]).toMatchObject({
      level: "info",
      name: "test",
      message: "request",
      method: "POST",
      url: "http://localhost:4321/student/me?[redacted]",
      headers: { authorization: "[redacted]", cookie: "[redacted]", "set-cookie": "[redacted]" },
      body: {
        username: "[redacted]",
        password: "[redacted]",
        email: "[redacted]",
        newPassword: "[redacted]",
      },
      note: "the student wrote from [redacted] and [redacted]",
    });
  });

  it("of a message, and of an error's message, stack and causes", () => {
    const { logger, output, parsed } = captured();
    const error = Object.assign(
      new Error(`Failed query: select 1\nparams: ${PHONE},${EMAIL}`, {
        cause: new Error(`no mailbox ${EMAIL}`),
      }),
      {
        detail: `Key (lower(email))=(${EMAIL}) already exists.`,
      },
    );
    logger.error(`could not reach ${PHONE}`, { error });
    expect(output()).not.toContain(PHONE);
    expect(output()).not.toContain(EMAIL);
    const [line] = parsed();
    expect(line!.message).toBe("could not reach [redacted]");
    expect(line!.error).toMatch(
      /^Error: Failed query: select 1\nparams: \[redacted\]\n\s+at .*\ncaused by: Error: no mailbox \[redacted\]\n\s+at /s,
    );
  });

  it("keeps payment references, ids and amounts, which are not personal", () => {
    for (const text of [
      "CCE-20250115-7K3QX9M2PZ4D",
      "6f1d2c3b-4a59-4e87-9d6c-5b4a3f2e1d0c",
      "amount 25000000 kobo",
      "/student/invoice/school-fee/CCE-20250115-7K3QX9M2PZ4D",
    ]) {
      expect(scrubText(text)).toBe(text);
    }
  });
});

describe("request ids on log lines", () => {
  it("puts the id of the request being answered on every line, and only on those", async () => {
    const { logger, parsed } = captured();
    await withRequestId("req-1", async () => {
      logger.warn("first", { reason: "a" });
      await Promise.resolve();
      logger.info("second");
    });
    logger.info("outside");
    expect(
      parsed().map(({ requestId, message, reason }) => ({ requestId, message, reason })),
    ).toEqual([
      { requestId: "req-1", message: "first", reason: "a" },
      // One line's facts never leak into the next.
      { requestId: "req-1", message: "second", reason: undefined },
      { requestId: undefined, message: "outside", reason: undefined },
    ]);
  });
});

describe("LOG_LEVEL", () => {
  it.each([
    [{}, "info"],
    [{ NODE_ENV: "production" }, "info"],
    [{ NODE_ENV: "test" }, "silent"],
    [{ NODE_ENV: "test", LOG_LEVEL: "debug" }, "debug"],
    [{ LOG_LEVEL: " WARN " }, "warn"],
    [{ LOG_LEVEL: "" }, "info"],
  ])("%j gives %s", (env, level) => {
    expect(logLevelOf(env)).toBe(level);
  });

  it("drops lines below the level", () => {
    const { logger, parsed } = captured("warn");
    logger.info("not written");
    logger.warn("written");
    expect(parsed().map((line) => line.message)).toEqual(["written"]);
  });
});

describe("loggablePath", () => {
  it.each([
    ["http://localhost:4321/student/me?phone=08031234567", "/student/me"],
    ["http://localhost:4321/password/reset/MQ/abc-token_123?x=1", "/password/reset/[redacted]"],
    ["http://localhost:4321/staff/password/abc-token_123", "/staff/password/[redacted]"],
    ["http://localhost:4321/biodata/confirm/abc-token_123", "/biodata/confirm/[redacted]"],
    ["http://localhost:4321/verify/slip.token.value", "/verify/[redacted]"],
    ["http://localhost:4321/api/slips/verify/slip.token.value", "/api/slips/verify/[redacted]"],
    ["http://localhost:4321/verify/exam-card/card.token", "/verify/exam-card/[redacted]"],
    ["http://localhost:4321/api/results/verify/result.token", "/api/results/verify/[redacted]"],
    ["http://localhost:4321/exam-cards/verify/card.token", "/exam-cards/verify/[redacted]"],
    ["http://localhost:4321/api/students/08031234567", "/api/students/[redacted]"],
    ["http://localhost:4321/_astro/Shell.DsD3k2_x.css", "/_astro/Shell.DsD3k2_x.css"],
  ])("%s is logged as %s", (url, path) => {
    expect(loggablePath(url)).toBe(path);
  });
});
