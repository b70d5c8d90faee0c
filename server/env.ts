import { z } from "zod";
import { parseEnv } from "../src/lib/config/parse-env.ts";
import { PUBLIC_SANDBOX_KEY } from "./paystack/secret-key.ts";
import { MIN_PROXY_SECRET_LENGTH } from "../src/lib/http/proxy-secret.ts";
import { LogLevelSetting } from "../src/lib/log/log-level.ts";

/**
 * Signs slips outside production when SLIP_SIGNING_SECRET is unset, so demo slips stay
 * verifiable across restarts. It is in this repository: production refuses it (decision 123).
 */
export const DEVELOPMENT_SLIP_SIGNING_KEY = "development-only-slip-signing-key-not-secret";

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((value) => value || undefined)
  .pipe(z.url().optional());

const flag = z
  .enum(["true", "false", "1", "0", ""])
  .default("")
  .transform((value) => value === "true" || value === "1");

/** Every setting of the college API, read once from the environment at start. */
export const ServerEnv = z.object({
  /**
   * Production unless it says otherwise (decision 123): a server started without NODE_ENV must
   * not serve demo accounts, the mail outbox or a public signing key. `npm start` says development.
   */
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  /** Defaults to the proxy PORT + 1. */
  API_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Defaults to the proxy PORT + 2. */
  PAGES_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  /** Serving processes on PostgreSQL; defaults to the cores available (PGlite always runs one). */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  DATABASE_URL: optionalUrl,
  PUBLIC_ORIGIN: z.url().default("http://localhost:4321"),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(5).max(24 * 60).default(120),
  SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).max(24 * 14).default(12),
  /** How long one process reuses a session it looked up; a sign-out elsewhere takes at most this long (decision 112). */
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(10_000).default(2_000),
  PAYSTACK_SECRET_KEY: z.string().trim().default(""),
  PAYSTACK_BASE_URL: z.url().default("https://api.paystack.co"),
  /** Defaults to the proxy PORT + 8. */
  PAYSTACK_SANDBOX_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  ALLOW_PAYSTACK_SANDBOX_IN_PRODUCTION: flag,
  /** Signs the QR links on slips so a bursar can tell a genuine slip; required in production. */
  SLIP_SIGNING_SECRET: z.string().min(32, "Use at least 32 random characters.").optional(),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().min(3).default("Student Portal <no-reply@college.example>"),
  SUPPORT_EMAIL: z.email().default("support@college.example"),
  ALLOW_OUTBOX_IN_PRODUCTION: flag,
  /**
   * Shown by the proxy and page server to the API so it believes the client address they pass on
   * (decision 122). The all-in-one start makes a random one when unset.
   */
  PROXY_SHARED_SECRET: z
    .string()
    .min(MIN_PROXY_SECRET_LENGTH, `Use at least ${MIN_PROXY_SECRET_LENGTH} random characters.`)
    .optional(),
  /** fatal, error, warn, info (the default), debug, trace or silent; silent by default under NODE_ENV=test. */
  LOG_LEVEL: LogLevelSetting,
});
export type ServerEnv = z.infer<typeof ServerEnv>;

export function readServerEnv(source = process.env): ServerEnv {
  const env = parseEnv(ServerEnv, source);
  if (env.NODE_ENV === "production") {
    const problems: string[] = [];
    if (!env.PAYSTACK_SECRET_KEY && !env.ALLOW_PAYSTACK_SANDBOX_IN_PRODUCTION)
      problems.push("  - PAYSTACK_SECRET_KEY: required in production (or set ALLOW_PAYSTACK_SANDBOX_IN_PRODUCTION=true)");
    // With the public sandbox key anyone could sign a webhook that credits a payment.
    if (env.PAYSTACK_SECRET_KEY === PUBLIC_SANDBOX_KEY)
      problems.push("  - PAYSTACK_SECRET_KEY: the local sandbox's public key cannot be used in production");
    if (!env.SLIP_SIGNING_SECRET) problems.push("  - SLIP_SIGNING_SECRET: required in production");
    // Anyone who has read this repository could sign a slip with it.
    if (env.SLIP_SIGNING_SECRET === DEVELOPMENT_SLIP_SIGNING_KEY)
      problems.push("  - SLIP_SIGNING_SECRET: the development key is public; choose 32+ random characters");
    if (!env.SMTP_URL && !env.ALLOW_OUTBOX_IN_PRODUCTION)
      problems.push("  - SMTP_URL: required in production (or set ALLOW_OUTBOX_IN_PRODUCTION=true)");
    if (problems.length) throw new Error(`Invalid configuration:\n${problems.join("\n")}`);
  }
  return env;
}
