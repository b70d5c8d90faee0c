import { z } from "zod";
import { parseEnv } from "../src/lib/config/parse-env.ts";

/** Settings of the edge proxy, read once at start. */
export const ProxyEnv = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(4321),
  PUBLIC_ORIGIN: z.url().default("http://localhost:4321"),
  /** The college API (server/). */
  API_URL: z.url().default("http://127.0.0.1:4322"),
  /** The Astro page server. */
  PAGES_URL: z.url().default("http://127.0.0.1:4323"),
});
export type ProxyEnv = z.infer<typeof ProxyEnv>;

export const readProxyEnv = (source = process.env) => parseEnv(ProxyEnv, source);
