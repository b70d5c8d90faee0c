import { afterAll, beforeAll } from "vitest";
import { getRequestListener } from "@hono/node-server";

/**
 * Runs a test file with the global Response every serving process has once it listens: the
 * Node server adapter's lightweight one (decision 194). The process's own is put back after.
 * Returns that own Response, for answers not made the lightweight way.
 */
export function withServingAdapterResponse(): typeof Response {
  const NativeResponse = globalThis.Response;
  const NativeRequest = globalThis.Request;
  beforeAll(() => {
    getRequestListener(() => new Response(null));
  });
  afterAll(() => {
    Object.defineProperty(globalThis, "Response", { value: NativeResponse, writable: true });
    Object.defineProperty(globalThis, "Request", { value: NativeRequest, writable: true });
  });
  return NativeResponse;
}
