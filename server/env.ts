import { z } from "zod";
import { blankMeansDefault, parseEnv } from "../common/config/parse-env.ts";
import { PUBLIC_SANDBOX_KEY } from "./paystack/secret-key.ts";
import { GATEWAYS, type GatewayName } from "./payments/gateway.ts";
import {
  isRemitaDemoHost,
  parseServiceTypes,
  REMITA_DEMO,
  REMITA_LIVE_URL,
  serviceTypeIds,
} from "./remita/settings.ts";
import { MIN_PROXY_SECRET_LENGTH } from "../common/http/proxy-secret.ts";
import type { S3Settings } from "./uploads/s3-photos.ts";
import { LogLevelSetting, logLevelOf, type LogLevel } from "../common/log/log-level.ts";

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

const port = z.coerce.number().int().min(1).max(65535);

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => value || undefined);

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
  API_PORT: blankMeansDefault(port.optional()),
  /** Defaults to the proxy PORT + 2. */
  PAGES_PORT: blankMeansDefault(port.optional()),
  /** The address the API listens on; another machine's proxy needs 0.0.0.0 (or this host's own address). */
  API_HOST: blankMeansDefault(z.string().default("127.0.0.1")),
  /** The address the page server listens on. */
  PAGES_HOST: blankMeansDefault(z.string().default("127.0.0.1")),
  DATA_DIR: z.string().min(1).default("./data"),
  /** Serving processes on PostgreSQL; defaults to the cores available (PGlite always runs one). */
  WEB_CONCURRENCY: blankMeansDefault(z.coerce.number().int().min(1).max(64).optional()),
  DATABASE_URL: optionalUrl,
  PUBLIC_ORIGIN: z.url().default("http://localhost:4321"),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(24 * 60)
    .default(120),
  SESSION_ABSOLUTE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 14)
    .default(12),
  /**
   * How long one process reuses a session it looked up, and a read every student shares (the
   * sessions, announcements, mapped courses); a sign-out or a staff change elsewhere takes at
   * most this long to show (decision 112).
   */
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(10_000).default(2_000),
  PAYSTACK_SECRET_KEY: z.string().trim().default(""),
  PAYSTACK_BASE_URL: z.url().default("https://api.paystack.co"),
  /** Defaults to the proxy PORT + 8. */
  PAYSTACK_SANDBOX_PORT: blankMeansDefault(port.optional()),
  ALLOW_PAYSTACK_SANDBOX_IN_PRODUCTION: flag,
  /**
   * The gateways students may pay through: paystack, remita, or both (`paystack,remita`). Both are
   * always set up, so payments started on one no longer offered are still checked (decision 188).
   */
  PAYMENT_GATEWAYS: blankMeansDefault(z.string().default("paystack")).transform((text, context) => {
    const names = [...new Set(text.split(",").map((name) => name.trim().toLowerCase()))].filter(
      Boolean,
    );
    const unknown = names.filter((name) => !(GATEWAYS as readonly string[]).includes(name));
    if (unknown.length || !names.length) {
      context.addIssue({
        code: "custom",
        message: `Write ${GATEWAYS.join(", ")} or several of them, comma-separated${unknown.length ? ` (not ${unknown.join(", ")})` : ""}.`,
      });
      return z.NEVER;
    }
    return names as GatewayName[];
  }),
  /** Remita's id for the college (digits); unset with REMITA_API_KEY unset: the sandbox's demo merchant. */
  REMITA_MERCHANT_ID: optionalText.pipe(
    z
      .string()
      .regex(/^\d{1,20}$/, "Use the merchant id Remita gave, in digits.")
      .optional(),
  ),
  /** Empty: the local Remita sandbox on PORT+7 stands in (no money moves). */
  REMITA_API_KEY: z.string().trim().default(""),
  /**
   * The service type fees are invoiced under: one id for every kind of fee (`4430731`), or one per
   * kind (`school_fee:4430731,transcript:4430732`), or both (an id alone is for the kinds not named).
   */
  REMITA_SERVICE_TYPE_ID: optionalText.transform((text, context) => {
    if (text === undefined) return undefined;
    const types = parseServiceTypes(text);
    if ("problem" in types) {
      context.addIssue({ code: "custom", message: types.problem });
      return z.NEVER;
    }
    return types;
  }),
  REMITA_BASE_URL: blankMeansDefault(z.url().default(REMITA_LIVE_URL)),
  /** Defaults to the proxy PORT + 7. */
  REMITA_SANDBOX_PORT: blankMeansDefault(port.optional()),
  /** A demo site on the local Remita sandbox in production (REMITA_API_KEY unset). */
  ALLOW_REMITA_SANDBOX_IN_PRODUCTION: flag,
  /** A staging site on Remita's own demo (its public credentials or demo hosts) in production. */
  ALLOW_REMITA_DEMO_IN_PRODUCTION: flag,
  /**
   * Refunds of more than this many kobo wait for a second bursary officer or an administrator
   * before Paystack is asked (decision 151); 0 sends every refund to a second approver.
   */
  REFUND_SECOND_APPROVAL_KOBO: blankMeansDefault(
    z.coerce
      .number({ error: "Write the amount in kobo, e.g. 5000000 for ₦50,000." })
      .int("Write the amount in whole kobo, e.g. 5000000 for ₦50,000.")
      .min(0, "Write 0 or more kobo.")
      .max(1_000_000_000, "Write at most 1000000000 kobo (₦10,000,000).")
      .default(5_000_000),
  ),
  /**
   * How the bursary's reconciliation asks Remita, which lists no transactions, about each unpaid
   * RRR (decision 190): this many at once, this pause between batches, at most this many per
   * reconciliation (more: a shorter range is asked for). Blank: 10, 250 ms, 1000.
   */
  REMITA_RECONCILE_BATCH_SIZE: blankMeansDefault(
    z.coerce
      .number({ error: "Write how many RRRs to ask about at once, e.g. 10." })
      .int("Write a whole number of RRRs, e.g. 10.")
      .min(1, "Ask about at least 1 RRR at a time.")
      .max(50, "Ask about at most 50 RRRs at a time.")
      .optional(),
  ),
  REMITA_RECONCILE_PAUSE_MS: blankMeansDefault(
    z.coerce
      .number({ error: "Write the pause in milliseconds, e.g. 250." })
      .int("Write the pause in whole milliseconds, e.g. 250.")
      .min(0, "Write 0 or more milliseconds.")
      .max(10_000, "Write at most 10000 milliseconds.")
      .optional(),
  ),
  REMITA_RECONCILE_MAX_CHECKS: blankMeansDefault(
    z.coerce
      .number({ error: "Write how many RRRs one reconciliation may ask about, e.g. 1000." })
      .int("Write a whole number of RRRs, e.g. 1000.")
      .min(1, "Allow at least 1 RRR.")
      .max(20_000, "Allow at most 20000 RRRs.")
      .optional(),
  ),
  /**
   * Whether a student sees a published semester's results only once that session's school fee is
   * paid (decision 176); "false" shows them regardless. Unset or empty: true.
   */
  RESULTS_REQUIRE_FEES: z
    .enum(["true", "false", "1", "0", ""])
    .default("")
    .transform((value) => value !== "false" && value !== "0"),
  /** Signs the QR links on slips so a bursar can tell a genuine slip; required in production. */
  SLIP_SIGNING_SECRET: z.string().min(32, "Use at least 32 random characters.").optional(),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().min(3).default("Student Portal <no-reply@college.example>"),
  SUPPORT_EMAIL: z.email().default("support@college.example"),
  ALLOW_OUTBOX_IN_PRODUCTION: flag,
  /**
   * Where text messages go (decision 200): "africastalking", with SMS_USERNAME and SMS_API_KEY;
   * unset, into the local SMS outbox (DATA_DIR/sms-outbox), which production refuses unless
   * ALLOW_SMS_OUTBOX_IN_PRODUCTION is set.
   */
  SMS_PROVIDER: z
    .enum(["africastalking", ""], {
      error: 'Use "africastalking", or leave it unset for the outbox.',
    })
    .default("")
    .transform((value) => value || undefined),
  SMS_USERNAME: optionalText,
  SMS_API_KEY: optionalText,
  /** The sender name students see, as registered with the provider (at most 11 letters or digits). */
  SMS_SENDER_ID: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9 ]{1,11}$/, "Use the registered sender id: at most 11 letters or digits.")
      .optional(),
  ),
  /** The provider's address; unset, Africa's Talking's live API. Its sandbox for a trial account. */
  SMS_BASE_URL: optionalUrl,
  /** The USSD code students dial (e.g. *384*1234#), shown beside the USSD PIN on the biodata page. */
  USSD_CODE: optionalText.pipe(
    z
      .string()
      .regex(/^\*[0-9*]{1,30}#$/, "Use the code as dialled, e.g. *384*1234#.")
      .optional(),
  ),
  ALLOW_SMS_OUTBOX_IN_PRODUCTION: flag,
  /**
   * Added as `?secret=` to the callback addresses given to Africa's Talking (SMS STOP replies and
   * the USSD menu): the provider signs nothing. Required in production with SMS_PROVIDER.
   */
  SMS_CALLBACK_SECRET: optionalText.pipe(
    z
      .string()
      .min(32, "Use at least 32 random characters.")
      .regex(/^[A-Za-z0-9_-]+$/, "Use letters, digits, - and _ only: it goes in an address.")
      .optional(),
  ),
  /**
   * The most text messages one Lagos day may queue before deadline reminders stop for the day
   * (decision 201); codes, receipts and news still go. Blank: no cap.
   */
  SMS_DAILY_CAP: blankMeansDefault(
    z.coerce
      .number({ error: "Write the most messages a day as a whole number, e.g. 2000." })
      .int("Write the most messages a day as a whole number, e.g. 2000.")
      .min(1, "Write 1 or more messages a day, or leave it blank for no cap.")
      .optional(),
  ),
  /**
   * Shown by the proxy and page server to the API so it believes the client address they pass on
   * (decision 122). The all-in-one start makes a random one when unset.
   */
  PROXY_SHARED_SECRET: z
    .string()
    .min(MIN_PROXY_SECRET_LENGTH, `Use at least ${MIN_PROXY_SECRET_LENGTH} random characters.`)
    .optional(),
  /**
   * Passport photos go to an S3-compatible bucket when these are set, else into the database
   * (decision 128). Bucket, region and both keys together, or none of them.
   */
  S3_BUCKET: optionalText.pipe(
    z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        "Use the bucket's name: 3 to 63 lower-case letters, digits, dots or hyphens.",
      )
      .optional(),
  ),
  S3_REGION: optionalText,
  /** The store's address, e.g. http://minio.internal:9000; leave unset for AWS S3 itself. */
  S3_ENDPOINT: optionalUrl.refine(
    (value) => !value || /^https?:/.test(value),
    "Use an http:// or https:// address.",
  ),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  /** Address the bucket in the path (MinIO and most self-hosted stores) rather than the host name. */
  S3_FORCE_PATH_STYLE: flag,
  /** fatal, error, warn, info (the default), debug, trace or silent; silent by default under NODE_ENV=test. */
  LOG_LEVEL: LogLevelSetting,
});
export type ServerEnv = z.infer<typeof ServerEnv>;

export function readServerEnv(source = process.env): ServerEnv {
  const env = parseEnv(ServerEnv, source);
  const problems = [
    ...halfConfiguredS3(env),
    ...halfConfiguredRemita(env),
    ...halfConfiguredSms(env),
  ];
  if (env.NODE_ENV === "production") {
    if (!env.PAYSTACK_SECRET_KEY && !env.ALLOW_PAYSTACK_SANDBOX_IN_PRODUCTION)
      problems.push(
        "  - PAYSTACK_SECRET_KEY: required in production (or set ALLOW_PAYSTACK_SANDBOX_IN_PRODUCTION=true)",
      );
    // With the public sandbox key anyone could sign a webhook that credits a payment.
    if (env.PAYSTACK_SECRET_KEY === PUBLIC_SANDBOX_KEY)
      problems.push(
        "  - PAYSTACK_SECRET_KEY: the local sandbox's public key cannot be used in production",
      );
    problems.push(...remitaInProduction(env));
    if (!env.SLIP_SIGNING_SECRET) problems.push("  - SLIP_SIGNING_SECRET: required in production");
    // Anyone who has read this repository could sign a slip with it.
    if (env.SLIP_SIGNING_SECRET === DEVELOPMENT_SLIP_SIGNING_KEY)
      problems.push(
        "  - SLIP_SIGNING_SECRET: the development key is public; choose 32+ random characters",
      );
    if (!env.SMTP_URL && !env.ALLOW_OUTBOX_IN_PRODUCTION)
      problems.push(
        "  - SMTP_URL: required in production (or set ALLOW_OUTBOX_IN_PRODUCTION=true)",
      );
    if (env.SMS_PROVIDER && !env.SMS_CALLBACK_SECRET)
      problems.push("  - SMS_CALLBACK_SECRET: required in production with SMS_PROVIDER");
    if (!env.SMS_PROVIDER && !env.ALLOW_SMS_OUTBOX_IN_PRODUCTION)
      problems.push(
        "  - SMS_PROVIDER: required in production (or set ALLOW_SMS_OUTBOX_IN_PRODUCTION=true)",
      );
  }
  if (problems.length) throw new Error(`Invalid configuration:\n${problems.join("\n")}`);
  return env;
}

// A provider named without its account would fail at the first code a student waits for.
function halfConfiguredSms(env: ServerEnv): string[] {
  if (!env.SMS_PROVIDER) return [];
  return (["SMS_USERNAME", "SMS_API_KEY"] as const)
    .filter((name) => env[name] === undefined)
    .map((name) => `  - ${name}: required with SMS_PROVIDER=${env.SMS_PROVIDER}`);
}

// A key without the merchant it belongs to, or the service type to invoice under, fails at the
// first RRR: refuse to start instead.
function halfConfiguredRemita(env: ServerEnv): string[] {
  if (!env.REMITA_API_KEY) return [];
  return (["REMITA_MERCHANT_ID", "REMITA_SERVICE_TYPE_ID"] as const)
    .filter((name) => env[name] === undefined)
    .map((name) => `  - ${name}: required with REMITA_API_KEY`);
}

/**
 * Remita in production: a real key wherever students are offered Remita, unless the local sandbox
 * is allowed; and never Remita's public demo merchant, key, service type or hosts, unless a
 * staging site says so: a payment "paid" on Remita's demo moved no money (decision 188).
 */
function remitaInProduction(env: ServerEnv): string[] {
  const problems: string[] = [];
  if (
    env.PAYMENT_GATEWAYS.includes("remita") &&
    !env.REMITA_API_KEY &&
    !env.ALLOW_REMITA_SANDBOX_IN_PRODUCTION
  )
    problems.push(
      "  - REMITA_API_KEY: required in production when PAYMENT_GATEWAYS offers remita (or set ALLOW_REMITA_SANDBOX_IN_PRODUCTION=true)",
    );
  if (env.ALLOW_REMITA_DEMO_IN_PRODUCTION) return problems;
  const demo = (name: string, what: string) =>
    `  - ${name}: Remita's public demo ${what} cannot be used in production (or set ALLOW_REMITA_DEMO_IN_PRODUCTION=true)`;
  if (env.REMITA_MERCHANT_ID === REMITA_DEMO.merchantId)
    problems.push(demo("REMITA_MERCHANT_ID", "merchant"));
  if (env.REMITA_API_KEY === REMITA_DEMO.apiKey) problems.push(demo("REMITA_API_KEY", "key"));
  if (
    env.REMITA_SERVICE_TYPE_ID &&
    serviceTypeIds(env.REMITA_SERVICE_TYPE_ID).includes(REMITA_DEMO.serviceTypeId)
  )
    problems.push(demo("REMITA_SERVICE_TYPE_ID", "service type"));
  if (env.REMITA_API_KEY && isRemitaDemoHost(env.REMITA_BASE_URL))
    problems.push(demo("REMITA_BASE_URL", "host"));
  return problems;
}

const S3_REQUIRED = ["S3_BUCKET", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const;

// Half a bucket's settings would silently leave photos in the database, or fail at the first
// upload: refuse to start instead, naming what is missing.
function halfConfiguredS3(env: ServerEnv): string[] {
  const given =
    [...S3_REQUIRED, "S3_ENDPOINT" as const].some((name) => env[name]) || env.S3_FORCE_PATH_STYLE;
  if (!given) return [];
  return S3_REQUIRED.filter((name) => !env[name]).map(
    (name) =>
      `  - ${name}: required to keep photos in S3 (set ${S3_REQUIRED.join(", ")}, or no S3_ setting at all)`,
  );
}

/** The bucket passport photos go to, or undefined when they stay in the database. */
export function s3SettingsOf(env: ServerEnv): S3Settings | undefined {
  if (!env.S3_BUCKET || !env.S3_REGION || !env.S3_ACCESS_KEY_ID || !env.S3_SECRET_ACCESS_KEY)
    return undefined;
  return {
    ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
  };
}

/** LOG_LEVEL alone, for what logs before (or without) the whole environment being read. */
export function logLevelFromEnv(source = process.env): LogLevel {
  return logLevelOf(source);
}
