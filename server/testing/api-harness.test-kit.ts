import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { createApi } from "../app.ts";
import type { ApiDeps } from "../deps.ts";
import {
  insertSchool,
  insertSessions,
  insertStudent,
  type StudentFields,
} from "../db/factories.ts";
import { seedDemoData } from "../db/seed.ts";
import { departments, faculties, programmes } from "../db/schema.ts";
import type { Database } from "../db/client.ts";
import { createMemoryLogger } from "../http/logger.ts";
import { databasePhotoBackend } from "../uploads/database-photos.ts";
import { createPhotoStorage, type PhotoStorage } from "../uploads/photo-storage.ts";
import { openTestDatabase } from "./test-database.test-kit.ts";
import { createPaystackClient, type PaystackClient } from "../paystack/client.ts";
import { paystackGateway } from "../paystack/gateway.ts";
import { createPaystackSandbox } from "../paystack/sandbox.ts";
import { createRemitaClient, type RemitaClient } from "../remita/client.ts";
import { remitaGateway } from "../remita/gateway.ts";
import { createRemitaSandbox } from "../remita/sandbox.ts";
import { serviceTypeIds } from "../remita/settings.ts";
import { fetchInProcess } from "./in-process-fetch.test-kit.ts";
import { createOutboxMailer, type Mailer } from "../mail/mailer.ts";
import { startJobQueue } from "../jobs/job-queue.ts";
import { createSmsOutbox } from "../sms/outbox.ts";
import type { SmsSender } from "../sms/sms-message.ts";
import { createPaymentReceipts } from "../payments/receipt.ts";
import type { Argon2Cost } from "../auth/password.ts";
import { PROXY_SECRET_HEADER } from "../../common/http/proxy-secret.ts";

const SANDBOX_KEY = "sk_test_harness_0123456789";
const SANDBOX_URL = "http://paystack-sandbox.test";

/** How the harness's API and its in-process Remita sandbox know each other. */
export const HARNESS_REMITA = {
  baseUrl: "http://remita-sandbox.test",
  merchantId: "9990001",
  apiKey: "harness-remita-key",
  /** Transcripts are invoiced under a service type of their own, every other kind under the first. */
  serviceTypes: { fallback: "4430731", byKind: { transcript: "4430732" } },
} as const;

/** The harness's API believes x-forwarded-for from requests with this secret, as it would from the proxy. */
export const TEST_PROXY_SECRET = "test-proxy-shared-secret-0123456789abcdef";

/**
 * Cheap argon2id for tests only (a fraction of a millisecond): the stored hash carries its cost,
 * and the harness's API writes and upgrades to this same cost, so sign-in code is unchanged.
 */
export const TEST_PASSWORD_COST: Argon2Cost = { memoryKiB: 64, passes: 1, parallelism: 1 };

/** A controllable clock: tests move time forward to expire sessions, tokens and windows. */
export function createTestClock(start = new Date("2025-01-15T09:00:00Z")) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms;
    },
  };
}

/**
 * What a test may swap: any of the API's dependencies, the mailer the queue's worker sends with,
 * the Paystack client (and its webhook key) behind the Paystack gateway, and the Remita client.
 */
export type HarnessOverrides = Partial<ApiDeps> & {
  mailer?: Mailer;
  /** Where the queue's worker sends text messages; the harness's SMS outbox unless given. */
  sms?: SmsSender;
  paystack?: PaystackClient;
  paystackSecretKey?: string;
  /** The Remita client behind the Remita gateway; the in-process sandbox's unless given. */
  remita?: RemitaClient;
  /**
   * The demo college README lists (its schools, students and staff) in place of the one school:
   * for tests of what the demo data promises. `school` is then its School of Sciences.
   */
  demoData?: boolean;
};

/**
 * The real API on a fresh database with one school, the six sessions and helpers to create
 * students and sign them in. Extra dependencies (payments, mail) can be overridden.
 */
export async function createApiHarness(overrides: HarnessOverrides = {}) {
  // Mail goes to a folder of this harness's own (tests read it through `outboxDir`), removed by
  // close(), or here when the harness fails to start: a run opens about a hundred harnesses, and
  // a folder not removed stays in the machine's temporary folder for good.
  const outboxDir = await mkdtemp(path.join(tmpdir(), "portal-outbox-"));
  try {
    return await harnessMailingTo(outboxDir, overrides);
  } catch (error) {
    await rm(outboxDir, { recursive: true, force: true });
    throw error;
  }
}

async function harnessMailingTo(
  outboxDir: string,
  {
    mailer: givenMailer,
    sms: givenSms,
    paystack: givenPaystack,
    paystackSecretKey = SANDBOX_KEY,
    remita: givenRemita,
    demoData = false,
    ...overrides
  }: HarnessOverrides,
) {
  const database = await openTestDatabase();
  const clock = createTestClock();
  const logger = createMemoryLogger();
  // In the test database, as the portal keeps them by default; a test may pass an S3 store.
  const photos = createPhotoStorage(databasePhotoBackend(database.db));
  // Webhooks the sandbox sends are captured here; tests deliver them to the API themselves.
  const webhooks: { body: string; signature: string | null }[] = [];
  const sandbox = createPaystackSandbox({
    db: database.db,
    secretKey: SANDBOX_KEY,
    publicUrl: SANDBOX_URL,
    webhookUrl: "http://api.test/paystack/webhook",
    now: () => clock.now(),
    fetch: async (input, init) => {
      const request = new Request(input, init);
      webhooks.push({
        body: await request.text(),
        signature: request.headers.get("x-paystack-signature"),
      });
      return new Response("ok");
    },
  });
  const sandboxFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    return sandbox.request(url.pathname + url.search, request);
  };
  // Remita's notifications are captured the same way; tests post them to /remita/webhook.
  const remitaNotifications: string[] = [];
  const remitaSandbox = createRemitaSandbox({
    db: database.db,
    merchantId: HARNESS_REMITA.merchantId,
    apiKey: HARNESS_REMITA.apiKey,
    serviceTypeIds: serviceTypeIds(HARNESS_REMITA.serviceTypes),
    notificationUrl: "http://api.test/remita/webhook",
    now: () => clock.now(),
    fetch: async (input, init) => {
      remitaNotifications.push(await new Request(input, init).text());
      return new Response("OK");
    },
  });
  const remitaFetch = fetchInProcess(remitaSandbox);
  const mailer =
    givenMailer ?? createOutboxMailer({ dir: outboxDir, from: "Portal <no-reply@college.test>" });
  // The real queue on the test database. Nothing is sent until a test asks: deliverMail() sends
  // what is due at once, jobs.work() starts a polling worker as the portal does.
  // Text messages go to a folder inside the mail outbox's, removed with it.
  const smsOutboxDir = path.join(outboxDir, "sms");
  const sms = givenSms ?? createSmsOutbox({ dir: smsOutboxDir });
  const jobs = await startJobQueue(database, { mailer, sms, logger });
  const publicOrigin = overrides.publicOrigin ?? "http://localhost:4321";
  const slipSigningKey = overrides.slipSigningKey ?? "test-slip-signing-key-0123456789abcdef";
  const deps: Omit<ApiDeps, "sharedReads"> = {
    db: database.db,
    logger,
    now: clock.now,
    sessions: { idleMinutes: 120, absoluteHours: 12 },
    photos,
    publicOrigin,
    gateways: {
      paystack: paystackGateway(
        givenPaystack ??
          createPaystackClient({
            baseUrl: SANDBOX_URL,
            secretKey: SANDBOX_KEY,
            fetch: sandboxFetch,
          }),
        paystackSecretKey,
      ),
      remita: remitaGateway(
        givenRemita ??
          createRemitaClient({
            baseUrl: HARNESS_REMITA.baseUrl,
            merchantId: HARNESS_REMITA.merchantId,
            apiKey: HARNESS_REMITA.apiKey,
            fetch: remitaFetch,
          }),
        { serviceTypes: HARNESS_REMITA.serviceTypes, publicOrigin },
      ),
    },
    offeredGateways: ["paystack"],
    jobs,
    receipts: createPaymentReceipts({ jobs, publicOrigin, slipSigningKey }),
    supportEmail: "support@college.test",
    refundSecondApprovalKobo: 5_000_000,
    slipSigningKey,
    passwordCost: TEST_PASSWORD_COST,
    proxySecret: TEST_PROXY_SECRET,
    ...overrides,
  };
  const app = createApi(deps);
  const school = demoData
    ? await seededSchool(database.db, photos)
    : await insertSessions(database.db).then(() =>
        insertSchool(database.db, {
          name: "School of Sciences",
          departments: ["Biology"],
          programmes: ["NCE Biology/Chemistry"],
        }),
      );
  const placement = {
    departmentId: school.departments[0]!.id,
    programmeId: school.programmes[0]!.id,
  };

  async function createStudent<F extends Partial<StudentFields> = object>(fields: F = {} as F) {
    return insertStudent(database.db, { ...placement, ...fields }, TEST_PASSWORD_COST);
  }

  async function signIn(phone: string, password = "demo1234") {
    const response = await request("/student/uniben/login", {
      method: "POST",
      json: { username: phone, password },
    });
    if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`);
    const body = (await response.json()) as { data: { tokens: { access: string } } };
    return body.data.tokens.access;
  }

  /**
   * app.request() with JSON and bearer conveniences, sent as the proxy sends it: the client's
   * address in x-forwarded-for with the shared secret. Call `app.request()` to be someone else.
   */
  function request(
    pathname: string,
    init: RequestInit & { json?: unknown; token?: string; clientAddress?: string } = {},
  ) {
    const { json, token, clientAddress = "203.0.113.7", ...rest } = init;
    const headers = new Headers(rest.headers);
    headers.set("x-forwarded-for", clientAddress);
    headers.set(PROXY_SECRET_HEADER, TEST_PROXY_SECRET);
    if (json !== undefined) headers.set("content-type", "application/json");
    if (token) headers.set("authorization", `Bearer ${token}`);
    return app.request(pathname, {
      ...rest,
      headers,
      body: json !== undefined ? JSON.stringify(json) : rest.body,
    });
  }

  let closing: Promise<void> | undefined;
  return {
    app,
    db: database.db,
    /** How another connection reaches this database (on PostgreSQL, its URL): for tests of races. */
    connection: database.jobConnection,
    deps,
    clock,
    logger,
    school,
    createStudent,
    signIn,
    request,
    sandbox,
    sandboxFetch,
    /** The in-process Remita sandbox, how the API reaches it, and the notifications it sent. */
    remitaSandbox,
    remitaFetch,
    remitaNotifications,
    /** The key the API checks Paystack's webhook signatures with. */
    paystackSecretKey,
    webhooks,
    outboxDir,
    jobs,
    /**
     * Sends every queued e-mail that is due, as the portal's worker would on its next poll, and
     * answers how many went and how many failed (a failure waits in the queue for its retry).
     */
    deliverMail: () => jobs.sendDueMail(),
    smsOutboxDir,
    /** Sends the text messages queued so far, as the worker would; answers how many went and failed. */
    deliverSms: () => jobs.sendDueSms(),
    /** Stops the queue, closes the database and removes the outbox; a second call waits on the first. */
    close() {
      closing ??= (async () => {
        try {
          await jobs.stop();
          await database.close();
        } finally {
          await rm(outboxDir, { recursive: true, force: true });
        }
      })();
      return closing;
    },
  };
}
export type ApiHarness = Awaited<ReturnType<typeof createApiHarness>>;

/** The demo data loaded, and its School of Sciences in the shape insertSchool answers. */
async function seededSchool(db: Database, photos: PhotoStorage) {
  await seedDemoData(db, { photos, nodeEnv: "test" });
  const [faculty] = await db
    .select()
    .from(faculties)
    .where(eq(faculties.name, "School of Sciences"));
  return {
    faculty: faculty!,
    departments: await db
      .select()
      .from(departments)
      .where(eq(departments.facultyId, faculty!.id))
      .orderBy(departments.id),
    programmes: await db
      .select()
      .from(programmes)
      .where(eq(programmes.facultyId, faculty!.id))
      .orderBy(programmes.id),
  };
}

/**
 * Pays an RRR at the harness's Remita sandbox, as at a bank's counter unless `channel` says
 * CARDPAYMENT; Remita's notification is captured in `api.remitaNotifications` (unless `notify` is
 * false). With `delayMs` the payment arrives that long after the harness clock's now, once the
 * clock has moved past it and the sandbox is asked anything.
 */
export async function payRrrAtSandbox(
  api: Pick<ApiHarness, "remitaSandbox">,
  rrr: string,
  options: { channel?: "CARDPAYMENT" | "BRANCH"; notify?: boolean; delayMs?: number } = {},
): Promise<{ state: "paid" | "scheduled" | "not payable"; notification: string }> {
  const response = await api.remitaSandbox.request(`/__sandbox/rrr/${rrr}/pay`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${HARNESS_REMITA.apiKey}`,
      "content-type": "application/json",
    },
    body: JSON.stringify(options),
  });
  if (response.status !== 200) throw new Error(`Remita sandbox pay failed: ${response.status}`);
  return (await response.json()) as {
    state: "paid" | "scheduled" | "not payable";
    notification: string;
  };
}
