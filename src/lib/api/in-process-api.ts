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

/** fetch() for API calls: in-process when the API runs here, over HTTP otherwise. */
export async function apiFetch(url: URL, init: RequestInit): Promise<Response> {
  const inProcess = (globalThis as Registry)[IN_PROCESS_API];
  return inProcess ? inProcess(new Request(url, init)) : fetch(url, init);
}
