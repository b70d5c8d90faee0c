/**
 * Where the page server sends its API calls. By default over HTTP to API_URL; a process that runs
 * the API too (the all-in-one start) registers the API's own `fetch` here, so a page's reads are
 * function calls instead of loopback HTTP requests (decision 112).
 *
 * A registry symbol, not a module variable: the start script and the built page bundle each
 * have their own copy of this module, and both must see the same registration.
 */
const IN_PROCESS_API = Symbol.for("college-portal.in-process-api");

type ApiFetch = (request: Request) => Response | Promise<Response>;
type Registry = { [IN_PROCESS_API]?: ApiFetch };

export function useInProcessApi(apiFetch: ApiFetch) {
  (globalThis as Registry)[IN_PROCESS_API] = apiFetch;
}

/**
 * fetch() for API calls: in-process when the API runs here, over HTTP otherwise. `timeoutMs`
 * bounds the wait for an API across the network. In-process there is no network to wait for,
 * and the API reads no request's signal: a timer per call there would only fire, ten seconds
 * later, at a request long answered.
 */
export async function apiFetch(url: URL, init: RequestInit, timeoutMs: number): Promise<Response> {
  const inProcess = (globalThis as Registry)[IN_PROCESS_API];
  return inProcess
    ? inProcess(new Request(url, init))
    : fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
}
