import { forgetStudent } from "../stores/student.ts";

/** A refusal the API explained; islands show `message` (spec: the server's message). */
export class ApiFailure extends Error {
  readonly status: number;
  readonly fields: Record<string, string>;
  /** When the portal said to come back (Retry-After): a busy portal (503) or a limit (429). */
  readonly retryAfterSeconds: number | null;
  /**
   * The student's place when the line at the door answered (decision 193), which moves on:
   * unlike a busy portal's 503, worth trying again for as long as it lasts. Null otherwise.
   */
  readonly placeInLine: number | null;
  constructor(
    status: number,
    message: string,
    fields: Record<string, string> = {},
    retryAfterSeconds: number | null = null,
    placeInLine: number | null = null,
  ) {
    super(message);
    this.status = status;
    this.fields = fields;
    this.retryAfterSeconds = retryAfterSeconds;
    this.placeInLine = placeInLine;
  }
}

function retryAfterOf(response: Response) {
  const seconds = Number(response.headers.get("retry-after") ?? Number.NaN);
  return Number.isInteger(seconds) && seconds >= 0 ? seconds : null;
}

/** The place the line at the door wrote beside its refusal (proxy/waiting-line/door.ts). */
function placeInLineOf(status: number, body: unknown) {
  const place = (body as { line?: { place?: unknown } } | null)?.line?.place;
  return status === 503 && Number.isInteger(place) && (place as number) > 0
    ? (place as number)
    : null;
}

const CONNECTION_LOST = "We could not reach the portal. Check your connection and try again.";

/** Sends the browser to sign-in, remembering where the student was (spec: any 401). */
export function goToSignIn() {
  forgetStudent();
  const next = window.location.pathname + window.location.search;
  window.location.assign(`/login?${new URLSearchParams({ next })}`);
}

/**
 * Calls the college API through the proxy (/api/...). The session cookie goes along by itself;
 * page scripts never hold the token. A 401 ends the session here as it did on the server.
 *
 * Answers are typed with the shared contract's types but not parsed with zod here: the page
 * server and the API parse, and zod would cost islands ~15 KB on slow connections.
 */
export async function apiRequest<T>(
  path: string,
  init: { method?: string; json?: unknown; body?: BodyInit; timeoutMs?: number } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (init.json !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method: init.method ?? "GET",
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
      credentials: "same-origin",
      signal: AbortSignal.timeout(init.timeoutMs ?? 30_000),
    });
  } catch {
    throw new ApiFailure(0, CONNECTION_LOST);
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.status === 401 && !path.endsWith("/login")) {
    goToSignIn();
    throw new ApiFailure(401, "Your session has ended. Please sign in again.");
  }
  if (!response.ok) {
    const error = (body as { error?: { message?: string; fields?: Record<string, string> } } | null)
      ?.error;
    throw new ApiFailure(
      response.status,
      error?.message ?? "The portal could not do that. Please try again.",
      error?.fields,
      retryAfterOf(response),
      placeInLineOf(response.status, body),
    );
  }
  return body as T;
}
