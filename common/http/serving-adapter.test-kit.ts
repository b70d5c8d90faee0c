import { afterAll, beforeAll } from "vitest";
import { getRequestListener } from "@hono/node-server";

/**
 * Runs a test file with the global Response every serving process has once it listens: the
 * Node server adapter's lightweight one (decision 194); what was there before is put back after.
 * Another file in the same worker may have left the adapter's in place already, so the Response
 * undici makes is found under it (the lightweight class extends it), not remembered from before.
 */
export function withServingAdapterResponse(): () => typeof Response {
  const before = { Response: globalThis.Response, Request: globalThis.Request };
  beforeAll(() => {
    getRequestListener(() => new Response(null));
  });
  afterAll(() => {
    Object.defineProperty(globalThis, "Response", { value: before.Response, writable: true });
    Object.defineProperty(globalThis, "Request", { value: before.Request, writable: true });
  });
  return () => Object.getPrototypeOf(globalThis.Response) as typeof Response;
}
