import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { ApiEnv } from "./context.ts";
import { ApiError, handleError } from "./errors.ts";
import { createMemoryLogger } from "./logger.ts";
import { withRequestId } from "../../common/log/logger.server.ts";

function appThatThrows(error: Error) {
  const logger = createMemoryLogger();
  const app = new Hono<ApiEnv>();
  app.use(async (c, next) => {
    c.set("requestId", "req-123");
    c.set("logger", logger);
    await withRequestId("req-123", next);
  });
  app.get("/", () => {
    throw error;
  });
  app.onError(handleError);
  return { app, logger };
}

describe("handleError", () => {
  it("answers an expected refusal with its status, message and fields", async () => {
    const { app } = appThatThrows(
      new ApiError(409, "That phone number is taken.", { fields: { phone: "Taken" } }),
    );
    const response = await app.request("/");
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      status: "error",
      message: "That phone number is taken.",
      error: { message: "That phone number is taken.", fields: { phone: "Taken" } },
    });
  });

  it("hides an unexpected error behind a generic 500 with a reference, and logs it", async () => {
    const { app, logger } = appThatThrows(new Error("connection string postgres://secret@db"));
    const response = await app.request("/");
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body.error.message).toBe(
      "Something went wrong on our side. Please try again. If it happens again, tell the help desk this reference: req-123.",
    );
    expect(JSON.stringify(body)).not.toContain("secret");
    const [line] = logger.lines.map((text) => JSON.parse(text));
    expect(line).toMatchObject({
      level: "error",
      message: "unhandled error",
      requestId: "req-123",
    });
    // With its stack, so the line says where it failed.
    expect(line.error).toMatch(/^Error: connection string .*\n\s+at /);
  });
});
