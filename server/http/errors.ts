import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ApiEnv } from "./context.ts";
import { tellTheHelpDesk } from "../../common/http/request-id.ts";

/**
 * An expected refusal: the message is shown to the student as it is, so it must say what
 * happened and what to do. `fields` names the inputs at fault, for forms that mark them.
 */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly fields: Record<string, string> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: ContentfulStatusCode,
    message: string,
    options: { fields?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.fields = options.fields;
    this.headers = options.headers;
  }
}

/** The JSON every refusal answers with; `error.message` is what the spec's pages read. */
export function errorBody(message: string, fields?: Record<string, string>) {
  return { status: "error" as const, message, error: { message, ...(fields ? { fields } : {}) } };
}

export function handleError(error: Error, c: Context<ApiEnv>) {
  if (error instanceof ApiError) {
    return c.json(errorBody(error.message, error.fields), error.status, error.headers);
  }
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    const message =
      status === 413 ? "That request is too large." : error.message || "That request was refused.";
    return c.json(errorBody(message), status);
  }
  // The line carries the request's id (logRequests), the same the student is shown.
  c.get("logger").error("unhandled error", { error });
  return c.json(errorBody(somethingWentWrong(c.get("requestId"))), 500);
}

/** What the student reads when we fail: try again, and the reference the help desk can look up. */
export function somethingWentWrong(requestId: string) {
  return `Something went wrong on our side. Please try again. ${tellTheHelpDesk(requestId)}`;
}
