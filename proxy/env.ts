import { z } from "zod";
import { blankMeansDefault, parseEnv } from "../common/config/parse-env.ts";
import { MIN_PROXY_SECRET_LENGTH } from "../common/http/proxy-secret.ts";
import { LogLevelSetting } from "../common/log/log-level.ts";
import type { ClientAddressRule } from "./client-address.ts";

const trustedHops = z
  .string()
  .trim()
  .optional()
  .transform((value) => value || "0")
  .pipe(
    z
      .string()
      .regex(/^\d+$/, "How many load balancers or CDNs are in front, as a whole number (0: none).")
      .transform(Number)
      .pipe(z.number().max(10, "At most 10 proxies in front.")),
  );

const clientAddressHeader = z
  .string()
  .trim()
  .toLowerCase()
  .optional()
  .transform((value) => value || undefined)
  .pipe(
    z
      .string()
      .regex(/^[a-z0-9!#$%&'*+.^_`|~-]+$/, "A header name, such as cf-connecting-ip.")
      // Any client can add to these; counting hops from the right is the only safe way to read them.
      .refine(
        (name) => name !== "x-forwarded-for" && name !== "forwarded",
        "Clients write to this header too: set TRUSTED_PROXY_HOPS instead.",
      )
      .optional(),
  );

/** Settings of the edge proxy, read once at start. */
export const ProxyEnv = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(4321),
  PUBLIC_ORIGIN: z.url().default("http://localhost:4321"),
  /** The college API (server/); defaults to 127.0.0.1 on PORT + 1. */
  API_URL: blankMeansDefault(z.url().optional()),
  /** The Astro page server; defaults to 127.0.0.1 on PORT + 2. */
  PAGES_URL: blankMeansDefault(z.url().optional()),
  /** Load balancers or CDNs in front that append to x-forwarded-for; 0: the socket's address is the client's (decision 122). */
  TRUSTED_PROXY_HOPS: trustedHops,
  /** A header a CDN in front sets to the client's address, overwriting the client's own (e.g. cf-connecting-ip). */
  CLIENT_ADDRESS_HEADER: clientAddressHeader,
  /** Sent to the API and page server so they believe the client address the proxy passes on. */
  PROXY_SHARED_SECRET: z
    .string()
    .min(MIN_PROXY_SECRET_LENGTH, `Use at least ${MIN_PROXY_SECRET_LENGTH} random characters.`)
    .optional(),
  /**
   * Admission control of the Node listener students reach, per serving process (decision 112):
   * requests handled at once, requests that may wait for a turn, and how long one may wait before
   * it is answered 503 with Retry-After. An edge runtime has its own limits and ignores these.
   */
  MAX_REQUESTS_IN_FLIGHT: blankMeansDefault(z.coerce.number().int().min(1).max(10_000).default(32)),
  MAX_REQUESTS_WAITING: blankMeansDefault(z.coerce.number().int().min(0).max(100_000).default(512)),
  MAX_REQUEST_WAIT_MS: blankMeansDefault(
    z.coerce.number().int().min(0).max(120_000).default(10_000),
  ),
  /**
   * The line at the door for deadline day (decision 193): "off" lets every newcomer straight in
   * (the per-process limits above still apply). WAITING_LINE_MAX_PER_SECOND caps how many
   * newcomers a second each serving process lets in, however much room it measures;
   * WAITING_LINE_MIN_PER_SECOND how many it lets in however slow the portal answers (a machine
   * known to take that many, or the journeys' portal, where a line forms only when a journey
   * holds the door: new browsers arrive many a second there, on a machine busy with them).
   */
  WAITING_LINE: blankMeansDefault(z.enum(["on", "off"]).default("on")),
  WAITING_LINE_MAX_PER_SECOND: blankMeansDefault(
    z.coerce.number().min(0.5).max(10_000).default(200),
  ),
  WAITING_LINE_MIN_PER_SECOND: blankMeansDefault(
    z.coerce.number().min(0.5).max(10_000).default(0.5),
  ),
  /** At info or lower the proxy writes one JSON line per request (decision 125). */
  LOG_LEVEL: LogLevelSetting,
  /** Read only for LOG_LEVEL's default: silent under test. */
  NODE_ENV: z.string().optional(),
});
export type ProxyEnv = z.infer<typeof ProxyEnv>;

export function readProxyEnv(source: Record<string, string | undefined> = process.env): ProxyEnv {
  const env = parseEnv(ProxyEnv, source);
  if (env.CLIENT_ADDRESS_HEADER && env.TRUSTED_PROXY_HOPS > 0) {
    throw new Error(
      "Invalid configuration:\n  - CLIENT_ADDRESS_HEADER, TRUSTED_PROXY_HOPS: set one of them, not both " +
        "(the header when a CDN sets it, the hops when load balancers append to x-forwarded-for).\n" +
        "See .env.example for every variable.",
    );
  }
  if (env.WAITING_LINE_MIN_PER_SECOND > env.WAITING_LINE_MAX_PER_SECOND) {
    throw new Error(
      "Invalid configuration:\n  - WAITING_LINE_MIN_PER_SECOND: at most WAITING_LINE_MAX_PER_SECOND " +
        `(${env.WAITING_LINE_MAX_PER_SECOND}).\nSee .env.example for every variable.`,
    );
  }
  return env;
}

/** Where the proxy finds the client's address under these settings. */
export function clientAddressRule(
  env: Pick<ProxyEnv, "TRUSTED_PROXY_HOPS" | "CLIENT_ADDRESS_HEADER">,
): ClientAddressRule {
  return env.CLIENT_ADDRESS_HEADER
    ? { header: env.CLIENT_ADDRESS_HEADER }
    : { trustedHops: env.TRUSTED_PROXY_HOPS };
}
