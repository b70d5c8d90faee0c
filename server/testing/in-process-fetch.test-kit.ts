/**
 * A fetch that hands each request to an app in this process (a sandbox's Hono app) by its path,
 * and gives up when the request's signal aborts, as a real fetch does: a client's time-out then
 * fires even while the app is still holding its answer back.
 */
export function fetchInProcess(app: {
  request(path: string, init: Request): Response | Promise<Response>;
}): typeof fetch {
  return (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const { signal } = request;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<Response>((resolve, reject) => {
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      Promise.resolve(app.request(url.pathname + url.search, request)).then(resolve, reject);
    });
  };
}
