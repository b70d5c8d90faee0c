import { randomInt } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { request } from "undici";
import type { Database } from "../../server/db/client.ts";
import { staff } from "../../server/db/schema.ts";
import { hashPassword } from "../../server/auth/password.ts";
import { currentCode, newTotpSecret } from "../../server/staff/totp.ts";
import { notificationOf } from "../../server/remita/sandbox.ts";
import type { SandboxInvoice } from "../../server/remita/sandbox-store.ts";
import { REMITA_DEMO } from "../../server/remita/settings.ts";
import type { ReconciliationRow } from "../../common/payments/bursary.ts";
import { VirtualBrowser } from "./browser.ts";
import type { RemitaEvents } from "./remita.ts";
import type { StepRecorder } from "./stats.ts";

// What a Remita run needs besides the students: the sandbox's switches and records, the storm of
// notifications under --faults, the reconciler passes at the end, and the bursar who reads the
// reconciliation.

/** A third of Remita's API calls fail: a sixth answer 503 at once, a sixth hang past the client's time-out. */
export const FAULT_SHARES = { errorShare: 1 / 6, timeoutShare: 1 / 6 };
export const NO_FAULTS = { errorShare: 0, timeoutShare: 0 };

const loopback = (origin: string, path: string) => {
  const address = new URL(path, origin);
  if (address.hostname === "localhost") address.hostname = "127.0.0.1";
  return address;
};

/** A call to the sandbox's test hooks, with the key that opens them. */
async function sandboxHook<T>(
  remitaOrigin: string,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const response = await request(loopback(remitaOrigin, path), {
    method,
    headers: {
      authorization: `Bearer ${REMITA_DEMO.apiKey}`,
      accept: "application/json",
      host: new URL(remitaOrigin).host,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.statusCode, json: (await response.body.json()) as T };
}

/** Turns the sandbox's fault switches (they are in the database: every worker obeys them). */
export async function setSandboxFaults(remitaOrigin: string, shares: typeof FAULT_SHARES) {
  const { status } = await sandboxHook(remitaOrigin, "POST", "/__sandbox/faults", shares);
  if (status !== 200)
    throw new Error(`The Remita sandbox refused its fault switches (HTTP ${status})`);
}

type InvoiceAnswer = { status: string; invoice?: Record<string, unknown> };

/** The sandbox's invoice for an RRR, its dates as dates; null when it has none. */
export async function sandboxInvoice(
  remitaOrigin: string,
  rrr: string,
): Promise<SandboxInvoice | null> {
  const { status, json } = await sandboxHook<InvoiceAnswer>(
    remitaOrigin,
    "GET",
    `/__sandbox/rrr/${rrr}`,
  );
  if (status === 404) return null;
  if (status !== 200 || !json.invoice)
    throw new Error(`the sandbox answered HTTP ${status} for RRR ${rrr}`);
  const invoice = json.invoice;
  const date = (value: unknown) => (typeof value === "string" ? new Date(value) : null);
  return {
    ...invoice,
    createdAt: date(invoice.createdAt)!,
    paidAt: date(invoice.paidAt),
    arrivesAt: date(invoice.arrivesAt),
  } as SandboxInvoice;
}

/**
 * The RRRs among `rrrs` the Remita sandbox holds as paid, asked one by one through its test hook
 * (Remita lists nothing to merchants), a few at a time. Null (and why) when it cannot be asked.
 */
export async function remitaPaidRrrs(
  remitaOrigin: string,
  rrrs: Iterable<string>,
): Promise<{ paid: Set<string> | null; problem?: string }> {
  const queue = [...new Set(rrrs)];
  const paid = new Set<string>();
  try {
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let rrr = queue.pop(); rrr !== undefined; rrr = queue.pop()) {
          const invoice = await sandboxInvoice(remitaOrigin, rrr);
          if (invoice?.status === "paid") paid.add(rrr);
        }
      }),
    );
  } catch (error) {
    return {
      paid: null,
      problem: `the Remita sandbox at ${remitaOrigin} could not be asked: ${(error as Error).message}`,
    };
  }
  return { paid };
}

/** Twelve random digits the sandbox holds no invoice for. */
async function madeUpRrr(remitaOrigin: string): Promise<string> {
  for (;;) {
    const rrr = `${randomInt(1, 10)}${String(randomInt(0, 10 ** 11)).padStart(11, "0")}`;
    if (!(await sandboxInvoice(remitaOrigin, rrr))) return rrr;
  }
}

/**
 * Remita's notifications as a flaky network delivers them, under --faults: every real one sent
 * again three times at random moments after its payment arrives (so they land out of order and
 * alongside the status checks), and forged ones claiming RRRs the student has not paid (yet) and
 * RRRs nobody issued, sent to the portal's Remita webhook as Remita would. Without faults it only
 * remembers the RRRs, for the checks.
 */
export class RemitaRun implements RemitaEvents {
  /** Every RRR a student was given, and where the sandbox is. */
  readonly issuedRrrs = new Set<string>();
  remitaOrigin: string | null = null;
  /** When the last bank payment reaches Remita (ms since the epoch). */
  lastArrival = 0;
  readonly sent = {
    replays: 0,
    forgedUnpaid: 0,
    forgedMadeUp: 0,
    answeredOk: 0,
    refused: 0,
    lost: 0,
  };
  private readonly pending: Promise<void>[] = [];

  private readonly options: {
    portalOrigin: string;
    faults: boolean;
    /** Replays land within this many ms of the payment's arrival. */
    spreadMs: number;
    random?: () => number;
  };

  constructor(options: RemitaRun["options"]) {
    this.options = options;
  }

  issued(rrr: string, remitaOrigin: string) {
    this.issuedRrrs.add(rrr);
    this.remitaOrigin ??= remitaOrigin;
    if (!this.options.faults) return;
    // Before it is paid: the portal must ask Remita and find it unpaid.
    this.later(0, async () => {
      this.sent.forgedUnpaid += 1;
      const invoice = await sandboxInvoice(remitaOrigin, rrr);
      if (invoice) await this.deliver([notificationOf({ ...invoice, channel: "BRANCH" })]);
    });
    if (this.issuedRrrs.size % 3 === 0) {
      this.later(this.spread(), async () => {
        this.sent.forgedMadeUp += 1;
        const invoice = await sandboxInvoice(remitaOrigin, rrr);
        if (!invoice) return;
        // An RRR no one was given, and one naming a real order under another RRR.
        await this.deliver([
          notificationOf({
            ...invoice,
            rrr: await madeUpRrr(remitaOrigin),
            orderId: `CCE-FORGED-${randomInt(1e9)}`,
          }),
          notificationOf({ ...invoice, rrr: await madeUpRrr(remitaOrigin) }),
        ]);
      });
    }
  }

  paid(rrr: string, arrivesAt: number) {
    this.lastArrival = Math.max(this.lastArrival, arrivesAt);
    if (!this.options.faults) return;
    for (let copy = 0; copy < 3; copy++) {
      this.later(arrivesAt - Date.now() + this.spread(), async () => {
        this.sent.replays += 1;
        const invoice = await sandboxInvoice(this.remitaOrigin!, rrr);
        if (invoice) await this.deliver([notificationOf(invoice)]);
      });
    }
  }

  /** Waits for every notification scheduled so far to have been sent. */
  async drained() {
    while (this.pending.length > 0) await Promise.all(this.pending.splice(0));
  }

  private spread() {
    return Math.floor((this.options.random ?? Math.random)() * this.options.spreadMs);
  }

  private later(delayMs: number, send: () => Promise<void>) {
    this.pending.push(
      sleep(Math.max(0, delayMs))
        .then(send)
        // A notification that does not get through is Remita's to send again; it is counted.
        .catch(() => void (this.sent.lost += 1)),
    );
  }

  private async deliver(body: unknown[]) {
    const response = await request(loopback(this.options.portalOrigin, "/api/remita/webhook"), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        host: new URL(this.options.portalOrigin).host,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.body.text();
    if (response.statusCode === 200 && text === "OK") this.sent.answeredOk += 1;
    else this.sent.refused += 1;
  }
}

/** The portal's reconciler now, through its development hook: how many payments it credited. */
export async function reconcileNow(portalOrigin: string): Promise<number> {
  const response = await request(loopback(portalOrigin, "/api/dev/reconcile-payments"), {
    method: "POST",
    headers: { origin: portalOrigin, host: new URL(portalOrigin).host, accept: "application/json" },
    signal: AbortSignal.timeout(120_000),
  });
  const body = (await response.body.json()) as { data?: { credited?: number } };
  if (response.statusCode !== 200 || typeof body.data?.credited !== "number")
    throw new Error(`the reconciler hook answered HTTP ${response.statusCode}`);
  return body.data.credited;
}

/** Payments the reconciler checks per pass (server/payments/reconciler.ts's batch). */
const RECONCILER_BATCH = 25;

/**
 * Reconciler passes until every pending payment has been asked about once since the faults
 * ended and the last pass credited nothing: `pendingAtMost` bounds how many can be pending (a pass
 * takes the least recently checked first). Answers the passes and what they credited.
 */
export async function reconcileUntilSettled(
  portalOrigin: string,
  pendingAtMost: number,
): Promise<{ passes: number; credited: number }> {
  const sweep = Math.ceil(pendingAtMost / RECONCILER_BATCH) + 1;
  let credited = 0;
  for (let passes = 1; ; passes++) {
    const now = await reconcileNow(portalOrigin);
    credited += now;
    if ((passes >= sweep && now === 0) || passes >= 2 * sweep + 5) return { passes, credited };
  }
}

/** A bursar made for the run, enrolled with an authenticator whose secret the run keeps. */
export type LoadBursar = { email: string; password: string; totpSecret: string };

export async function createLoadBursar(db: Database): Promise<LoadBursar> {
  const bursar = {
    email: `load-bursar-${randomInt(1e9)}@college.example`,
    password: `load-bursar-${randomInt(1e9)}`,
    totpSecret: newTotpSecret(),
  };
  await db.insert(staff).values({
    name: "Load Bursar",
    email: bursar.email,
    passwordHash: await hashPassword(bursar.password),
    roles: ["bursar"],
    totpSecret: bursar.totpSecret,
  });
  return bursar;
}

/** The Lagos day of a moment, as the bursary's reconciliation takes days. */
export const lagosDay = (at: Date) => new Date(at.getTime() + 3_600_000).toISOString().slice(0, 10);

/**
 * The bursary's reconciliation for the run's days, as the bursar reads it: signed in on the staff
 * sign-in form with the second factor, then the staff API's `GET /staff/reconciliation`.
 */
export async function bursarReconciliation(
  portalOrigin: string,
  bursar: LoadBursar,
  days: { from: string; to: string },
  recorder: StepRecorder,
): Promise<{ rows: ReconciliationRow[] } | { problem: string }> {
  const browser = new VirtualBrowser("127.0.0.1", recorder, 120_000);
  const at = (path: string) => new URL(path, portalOrigin);
  try {
    await browser.navigate("bursar: sign-in page", at("/staff/login"), { status: 200 });
    await browser.navigate(
      "bursar: sign in",
      at("/staff/login"),
      { status: 303, location: "/staff/login/code" },
      {
        method: "POST",
        body: new URLSearchParams({ email: bursar.email, password: bursar.password }),
      },
    );
    await browser.api(
      "bursar: authenticator code",
      "/api/staff/login/code",
      { status: 200 },
      { code: currentCode(bursar.totpSecret, new Date()) },
    );
    const report = await browser.api<{ data: { rows: ReconciliationRow[] } }>(
      "bursar: reconciliation",
      `/api/staff/reconciliation?${new URLSearchParams(days)}`,
      { status: 200, accept: (answer) => (Array.isArray(answer.data.rows) ? null : "no rows") },
    );
    return { rows: report.data.rows };
  } catch (error) {
    return { problem: (error as Error).message };
  } finally {
    await browser.close();
  }
}
