import type { z } from "zod";
import { site } from "../config/site.server.ts";
import { apiFetch } from "./in-process-api.server.ts";
import { bodyJson } from "../../../common/http/body-as-made.ts";
import { PROXY_SECRET_HEADER } from "../../../common/http/proxy-secret.ts";
import { sentByProxy } from "../../../common/http/sent-by-proxy.server.ts";
import { REQUEST_ID_HEADER } from "../../../common/http/request-id.ts";
import { proxySecret } from "../config/site.server.ts";

/** The student's session has ended: the page server answers with a redirect to sign-in. */
export class SessionEnded extends Error {}

/** A refusal the API explained; pages show `message`, and each field's message beside it. */
export class ApiRefusal extends Error {
  readonly status: number;
  readonly fields: Record<string, string>;
  constructor(status: number, message: string, fields: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.fields = fields;
  }
}

const TIMEOUT_MS = 10_000;

/**
 * The student's address as our proxy passed it on, or null when the request did not come from it
 * (it lacks PROXY_SHARED_SECRET): then the page server names no one, and the API counts the
 * request as the page server's own (decision 122).
 */
export function forwardedClient(request: Request): string | null {
  return sentByProxy(request.headers, proxySecret())
    ? request.headers.get("x-forwarded-for")
    : null;
}

/**
 * Calls the college API from the page server with the student's bearer token, so a page's data
 * arrives with its HTML. Responses are parsed with the shared contract schemas. `forwardedFor`
 * comes from forwardedClient(); `requestId` is the page request's, so the API's lines carry it too
 * (the API believes it, like the address, only with the secret: decision 125).
 */
export function createServerApi(
  token: string | null,
  forwardedFor: string | null = null,
  requestId?: string,
) {
  // Rate limits count per client: pass on the address the proxy saw, not the page server's, with
  // the secret that makes the API believe it.
  const secret = proxySecret();
  const identity: Record<string, string> = {
    ...(forwardedFor && secret
      ? { "x-forwarded-for": forwardedFor, [PROXY_SECRET_HEADER]: secret }
      : {}),
    ...(requestId ? { [REQUEST_ID_HEADER]: requestId } : {}),
  };

  async function call<T extends z.ZodType>(
    path: string,
    schema: T,
    init: {
      method?: string;
      json?: unknown;
      form?: FormData;
      resultOn?: readonly number[];
      timeoutMs?: number;
    } = {},
  ): Promise<z.infer<T>> {
    const headers: Record<string, string> = { accept: "application/json", ...identity };
    if (token) headers.authorization = `Bearer ${token}`;
    if (init.json !== undefined) headers["content-type"] = "application/json";
    const response = await apiFetch(
      new URL(path, site().API_URL),
      {
        method: init.method ?? "GET",
        headers,
        // A FormData body gets its multipart content type (with the boundary) from fetch itself.
        body: init.form ?? (init.json === undefined ? undefined : JSON.stringify(init.json)),
      },
      init.timeoutMs ?? TIMEOUT_MS,
    );
    if (response.status === 401) throw new SessionEnded();
    const body = await bodyJson(response);
    if (!response.ok && !init.resultOn?.includes(response.status)) {
      const error = (
        body as { error?: { message?: string; fields?: Record<string, string> } } | null
      )?.error;
      throw new ApiRefusal(
        response.status,
        error?.message ?? "The portal could not answer that request.",
        error?.fields,
      );
    }
    return schema.parse(body);
  }
  return {
    /** `timeoutMs` for the rare read that takes long (a reconciliation asking Remita RRR by RRR). */
    get: <T extends z.ZodType>(path: string, schema: T, timeoutMs?: number) =>
      call(path, schema, { timeoutMs }),
    send: <T extends z.ZodType>(method: string, path: string, json: unknown, schema: T) =>
      call(path, schema, { method, json }),
    /** A file the API makes (a CSV export), passed on as it came; a refusal is an ApiRefusal. */
    async download(path: string, timeoutMs = 3 * TIMEOUT_MS): Promise<Response> {
      const headers: Record<string, string> = {
        ...identity,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      };
      const response = await apiFetch(new URL(path, site().API_URL), { headers }, timeoutMs);
      if (response.status === 401) throw new SessionEnded();
      if (response.ok) return response;
      const body = (await bodyJson(response)) as {
        error?: { message?: string };
      } | null;
      throw new ApiRefusal(
        response.status,
        body?.error?.message ?? "The portal could not answer that request.",
      );
    },
    /** Posts a multipart form (a file); `resultOn` names refusals whose body is still the result, such as an import's report. */
    upload: <T extends z.ZodType>(
      path: string,
      form: FormData,
      schema: T,
      resultOn: readonly number[] = [],
      method = "POST",
    ) =>
      // A whole college's file takes longer to check than a page's data.
      call(path, schema, { method, form, resultOn, timeoutMs: 3 * TIMEOUT_MS }),
  };
}
export type ServerApi = ReturnType<typeof createServerApi>;
