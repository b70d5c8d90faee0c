/**
 * What the API is given from outside, in a file of its own so that every router can name it
 * without importing the API that mounts the routers (hono's types.ts does the same).
 */
import type { Database } from "./db/client.ts";
import type { SessionLimits } from "./auth/sessions.ts";
import type { SessionCache } from "./auth/session-cache.ts";
import type { SharedReads } from "./http/shared-reads.ts";
import type { Argon2Cost } from "./auth/password.ts";
import type { Logger } from "./http/logger.ts";
import type { PhotoStorage } from "./uploads/photo-storage.ts";
import type { GatewayName, PaymentGateways } from "./payments/gateway.ts";
import type { JobQueue } from "./jobs/api-jobs.ts";
import type { PaymentReceipts } from "./payments/receipt.ts";

/** How a gateway without a list of transactions is asked, payment by payment, for a reconciliation. */
export type OneByOneSettings = {
  /** Payments asked about at once. */
  batchSize: number;
  /** The pause between two batches, so the gateway is never asked faster than it may be. */
  pauseMs: number;
  /** The most one reconciliation asks about: more, and a shorter range is asked for. */
  maxChecks: number;
};

/** Everything the API needs from outside; tests pass doubles or in-memory versions. */
export type ApiDeps = {
  db: Database;
  logger: Logger;
  now: () => Date;
  sessions: SessionLimits;
  photos: PhotoStorage;
  /** Where students open the portal, e.g. https://portal.college.edu.ng (used in links we send). */
  publicOrigin: string;
  /**
   * Every gateway the portal knows (Paystack and Remita), each always set up so that a payment
   * started on one is still checked after it stops being offered; each row names its own.
   */
  gateways: PaymentGateways;
  /** The gateways new payments may go through (PAYMENT_GATEWAYS; decision 188). */
  offeredGateways: GatewayName[];
  /**
   * Every e-mail goes through this durable queue, queued in the transaction that writes what the
   * mail speaks of (decision 124); the worker that sends them is started beside the API.
   */
  jobs: JobQueue;
  /** Queues the e-mail receipt of a credited payment (server/jobs, decision 096). */
  receipts: PaymentReceipts;
  /**
   * How the bursary's reconciliation asks a gateway that lists no transactions (Remita) about
   * each unpaid payment (REMITA_RECONCILE_*, decision 190); unset: the defaults in
   * payments/bursary/reconciliation.ts.
   */
  oneByOneReconciliation?: Partial<OneByOneSettings>;
  /** Refunds above this many kobo wait for a second approver (REFUND_SECOND_APPROVAL_KOBO, decision 151). */
  refundSecondApprovalKobo: number;
  /**
   * Whether published results wait for the session's school fee (RESULTS_REQUIRE_FEES, decision
   * 176); unset: they do.
   */
  resultsRequireFees?: boolean;
  /** HMAC key for the verification links printed on slips. */
  slipSigningKey: string;
  /** Where copies of complaints go. */
  supportEmail: string;
  /** Development only: the folder of the local mail outbox, listed at /dev/outbox to loopback clients. */
  outboxDir?: string;
  /**
   * SMS_CALLBACK_SECRET: Africa's Talking's callbacks (STOP replies, the USSD menu) carry it as `?secret=`;
   * unset, only this machine may call them (development and tests; decision 200).
   */
  smsCallbackSecret?: string;
  /** USSD_CODE: the code students dial for the USSD menu, shown on the biodata page. */
  ussdDialCode?: string;
  /**
   * SMS_DAILY_CAP: once this many text messages are queued in a Lagos day, deadline reminders stop
   * until the next; unset, no cap (decision 201).
   */
  smsDailyCap?: number;
  /** Development only: the folder of the local SMS outbox, listed at /dev/sms-outbox to loopback clients. */
  smsOutboxDir?: string;
  /**
   * PROXY_SHARED_SECRET: a request carrying it (from our proxy or page server) may name the
   * client's address in x-forwarded-for; any other is counted as its socket (decision 122).
   */
  proxySecret?: string;
  /** Made by createApi from `sessions.cacheMs`; routes that end sessions tell it. */
  sessionCache?: SessionCache;
  /** Made by createApi, kept as long as a session (`sessions.cacheMs`); staff changes empty it. */
  sharedReads: SharedReads;
  /**
   * The cost of the password hashes the API writes, and the one sign-in upgrades older hashes to.
   * Unset in production (OWASP_ARGON2_COST); tests set a cheap one to stay fast.
   */
  passwordCost?: Argon2Cost;
};
