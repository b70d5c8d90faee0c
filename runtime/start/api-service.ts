import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../server/db/client.ts";
import { createApi } from "../../server/app.ts";
import type { Logger } from "../../server/http/logger.ts";
import { s3SettingsOf } from "../../server/env.ts";
import { openPhotoStorage, photoBackendFor } from "../../server/uploads/open-photo-storage.ts";
import { diskPhotosDir, importDiskPhotos } from "../../server/uploads/disk-photos-import.ts";
import { createPhotoStorage } from "../../server/uploads/photo-storage.ts";
import { createPaystackGateway } from "../../server/paystack/gateway.ts";
import { createRemitaGateway } from "../../server/remita/gateway.ts";
import { createOutboxMailer, createSmtpMailer } from "../../server/mail/mailer.ts";
import { startJobQueue } from "../../server/jobs/job-queue.ts";
import {
  AFRICAS_TALKING_LIVE_URL,
  createAfricasTalkingSender,
} from "../../server/sms/africas-talking.ts";
import { createSmsOutbox } from "../../server/sms/outbox.ts";
import { scheduledWork } from "../../server/jobs/scheduled-work.ts";
import { createPaymentReceipts } from "../../server/payments/receipt.ts";
import type { PortalLayout } from "./layout.ts";

// Not the migrations' lock: an instance that waits for this one already has the tables.
const PREPARE_LOCK = 7_310_042_002;

/**
 * Applies pending migrations (under their lock), copies photos an earlier version kept on disk
 * into the photo store (decision 128) and, outside production, loads the demo data into an empty
 * database. On PostgreSQL one connection holds a lock meanwhile, so instances that start together
 * copy the photos and load the demo once.
 */
export async function prepareDatabase(layout: PortalLayout, logger: Logger) {
  const { serverEnv } = layout;
  const database = serverEnv.DATABASE_URL
    ? await openDatabase({ url: serverEnv.DATABASE_URL, poolSize: 1, logger })
    : await openDatabase({ dir: path.join(serverEnv.DATA_DIR, "pglite") });
  try {
    if (serverEnv.DATABASE_URL)
      await database.db.execute(sql`select pg_advisory_lock(${PREPARE_LOCK})`);
    const photoBackend = await photoBackendFor({ db: database.db, s3: s3SettingsOf(serverEnv) });
    logger.info("passport photos", { store: photoBackend.description });
    await importDiskPhotos(diskPhotosDir(serverEnv.DATA_DIR), photoBackend, logger);
    if (serverEnv.NODE_ENV === "production") return;
    const { seedDemoData } = await import("../../server/db/seed.ts");
    const photos = createPhotoStorage(photoBackend);
    if (await seedDemoData(database.db, { photos, nodeEnv: serverEnv.NODE_ENV })) {
      logger.info("demo data loaded", {
        students: ["08030000001", "08030000002", "08030000003 (record locked)"],
      });
    }
  } finally {
    // Closing the only connection releases the lock with it.
    await database.close();
  }
}

/**
 * Ends a serving process whose embedded database has stopped: every query would fail until it is
 * started again, which `npm start`'s primary does for a process that exits (decision 134).
 */
function stopForRestart(logger: Logger) {
  return (error: Error) => {
    // At once, not through the graceful stop: that would wait on a job queue and requests whose
    // every query now fails. The log line still goes out (common/log/standard-output.server.ts).
    logger.error("the database stopped: ending this process so it starts again", {
      error: error.message,
    });
    process.exit(1);
  };
}

/**
 * The college API with everything it needs: its database, mail, the job queue, Paystack and Remita.
 * Every instance takes jobs from the queue, scheduled work included: pg-boss hands each job to
 * one of them (decision 121). `migrate: false` when something else has migrated already.
 */
export async function startApiService(
  layout: PortalLayout,
  options: { logger: Logger; migrate: boolean },
) {
  const { serverEnv } = layout;
  const { logger, migrate } = options;
  const database = serverEnv.DATABASE_URL
    ? await openDatabase({ url: serverEnv.DATABASE_URL, migrate, logger })
    : await openDatabase({
        dir: path.join(serverEnv.DATA_DIR, "pglite"),
        migrate,
        onLost: stopForRestart(logger),
      });
  const photos = await openPhotoStorage({ db: database.db, s3: s3SettingsOf(serverEnv) });
  const mailer = serverEnv.SMTP_URL
    ? createSmtpMailer({ url: serverEnv.SMTP_URL, from: serverEnv.MAIL_FROM })
    : createOutboxMailer({ dir: layout.outboxDir!, from: serverEnv.MAIL_FROM });
  const sms = serverEnv.SMS_PROVIDER
    ? createAfricasTalkingSender({
        username: serverEnv.SMS_USERNAME!,
        apiKey: serverEnv.SMS_API_KEY!,
        senderId: serverEnv.SMS_SENDER_ID,
        baseUrl: serverEnv.SMS_BASE_URL ?? AFRICAS_TALKING_LIVE_URL,
      })
    : createSmsOutbox({ dir: layout.smsOutboxDir! });
  // Both always: a payment started on a gateway no longer offered is still checked and credited.
  const gateways = {
    paystack: createPaystackGateway(layout.paystack),
    remita: createRemitaGateway({ ...layout.remita, publicOrigin: serverEnv.PUBLIC_ORIGIN }),
  };
  // Every e-mail goes through the job queue on the same database, sent by an instance's worker.
  const jobs = await startJobQueue(database, { mailer, sms, logger });
  const receipts = createPaymentReceipts({
    jobs,
    publicOrigin: serverEnv.PUBLIC_ORIGIN,
    slipSigningKey: layout.slipSigningKey,
  });
  // Receipts, then the reconciler and the clean-up jobs on their schedules.
  await jobs.work({
    scheduled: scheduledWork({
      db: database.db,
      logger,
      now: () => new Date(),
      gateways,
      receipts,
      jobs,
      smsDailyCap: serverEnv.SMS_DAILY_CAP,
    }),
  });
  const api = createApi({
    db: database.db,
    logger,
    now: () => new Date(),
    sessions: {
      idleMinutes: serverEnv.SESSION_IDLE_MINUTES,
      absoluteHours: serverEnv.SESSION_ABSOLUTE_HOURS,
      cacheMs: serverEnv.SESSION_CACHE_MS,
    },
    photos,
    publicOrigin: serverEnv.PUBLIC_ORIGIN,
    gateways,
    offeredGateways: layout.offeredGateways,
    jobs,
    receipts,
    supportEmail: serverEnv.SUPPORT_EMAIL,
    refundSecondApprovalKobo: serverEnv.REFUND_SECOND_APPROVAL_KOBO,
    oneByOneReconciliation: {
      batchSize: serverEnv.REMITA_RECONCILE_BATCH_SIZE,
      pauseMs: serverEnv.REMITA_RECONCILE_PAUSE_MS,
      maxChecks: serverEnv.REMITA_RECONCILE_MAX_CHECKS,
    },
    resultsRequireFees: serverEnv.RESULTS_REQUIRE_FEES,
    slipSigningKey: layout.slipSigningKey,
    outboxDir: serverEnv.NODE_ENV === "production" ? undefined : layout.outboxDir,
    smsOutboxDir: serverEnv.NODE_ENV === "production" ? undefined : layout.smsOutboxDir,
    smsCallbackSecret: serverEnv.SMS_CALLBACK_SECRET,
    ussdDialCode: serverEnv.USSD_CODE,
    smsDailyCap: serverEnv.SMS_DAILY_CAP,
    proxySecret: serverEnv.PROXY_SHARED_SECRET,
  });
  return {
    api,
    database,
    mailer,
    sms,
    /** Call after the listeners have closed: queued jobs stay queued for another instance. */
    async stop() {
      await jobs.stop();
      await database.close();
    },
  };
}
