// A stand-in for `fetch` in the gateway clients' unit tests: it plays answers a test scripts, in
// order, and keeps every call, so a test can hold the client to what it sent and how it reacted.

/** One scripted answer: a response, a thrown network error, or a wait until the client gives up. */
export type Answer = (init: RequestInit) => Response | Promise<Response>;

/** The network failing as undici does when nothing listens. */
export const networkError: Answer = () => {
  throw new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
};

/** A server that never answers: the call ends only when the client's own time-out aborts it. */
export const hang: Answer = ({ signal }) =>
  new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason)));

/** A fetch that plays `answers` in order (the last one repeats) and records each call. */
export function scriptedFetch(...answers: Answer[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init = {}) => {
    calls.push({ url: String(input), init });
    return answers[Math.min(calls.length, answers.length) - 1]!(init);
  };
  return { fetch, calls };
}
