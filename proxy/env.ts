import { z } from "zod";
import { parseEnv } from "../src/lib/config/parse-env.ts";

/** Settings of the edge proxy, read once at start. */
export const ProxyEnv = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(4321),
  PUBLIC_ORIGIN: z.url().default("http://localhost:4321"),
  /** The college API (server/); defaults to 127.0.0.1 on PORT + 1. */
  API_URL: z.url().optional(),
  /** The Astro page server; defaults to 127.0.0.1 on PORT + 2. */
  PAGES_URL: z.url().optional(),
});
export type ProxyEnv = z.infer<typeof ProxyEnv>;

export const readProxyEnv = (source = process.env) => parseEnv(ProxyEnv, source);
