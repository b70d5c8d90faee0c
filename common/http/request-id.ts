/**
 * The header that carries a request's id from the proxy to the page server and the API, and back
 * to the student on every answer (decision 125). No node: imports: the proxy reads this too.
 */
export const REQUEST_ID_HEADER = "x-request-id";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` has the shape of the ids the proxy makes (crypto.randomUUID()). */
export function isRequestId(value: string | null | undefined): value is string {
  return typeof value === "string" && UUID.test(value);
}

/** The sentence that gives a student who met a failure the reference the help desk looks up. */
export function tellTheHelpDesk(requestId: string) {
  return `If it happens again, tell the help desk this reference: ${requestId}.`;
}
