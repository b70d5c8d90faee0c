import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDatabase, type DatabaseHandle } from "../db/client.ts";
import { openTestDatabase } from "../testing/test-database.test-kit.ts";
import { createPaystackClient, PaystackError } from "./client.ts";
import type { OfflineChargeInput } from "../payments/gateway.ts";
import { createPaystackSandbox } from "./sandbox.ts";
import { isValidPaystackSignature } from "./signature.ts";

// The sandbox keeps its transactions in the database (decision 129): a sandbox that starts again
// over the same database, or a second one beside it, knows every transaction the first made.

const SECRET = "sk_test_sandbox";

/**
 * A database that outlives the processes using it: `open()` connects anew each time, as a
 * restarted process would. PGlite in a folder (closed and opened again), or a PostgreSQL database
 * reached through a new pool.
 */
async function databaseThatOutlivesItsProcesses() {
  if (process.env.TEST_DATABASE === "postgres") {
    const server = await openTestDatabase();
    const { url } = server.jobConnection as { url: string };
    return { open: () => openDatabase({ url, migrate: false }), remove: () => server.close() };
  }
  const dir = await mkdtemp(path.join(tmpdir(), "portal-sandbox-"));
  return {
    open: () => openDatabase({ dir }),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A running sandbox on `handle`, with the client the API would use and the webhooks it sent. */
function sandboxOn(handle: DatabaseHandle, options: { settleRefundsAfterMs?: number } = {}) {
  const webhooks: { body: string; signature: string | null }[] = [];
  const app = createPaystackSandbox({
    db: handle.db,
    secretKey: SECRET,
    publicUrl: "http://localhost:4329",
    webhookUrl: "http://api.test/paystack/webhook",
    ...options,
    fetch: async (_url, init) => {
      webhooks.push({
        body: String(init?.body),
        signature: new Headers(init?.headers).get("x-paystack-signature"),
      });
      return new Response(null, { status: 200 });
    },
  });
  const client = createPaystackClient({
    baseUrl: "http://sandbox.test",
    secretKey: SECRET,
    fetch: async (input, init) => app.request(String(input), init),
  });
  return { app, client, webhooks, handle, stop: () => handle.close() };
}

const transfer: OfflineChargeInput = {
  reference: "FEES-2025-0042",
  amountKobo: 12_000_000,
  email: "amaka@example.com",
  metadata: { student_id: 42 },
  channel: { kind: "bank_transfer", expiresAt: new Date(Date.now() + 3_600_000) },
};

let cleanUp: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  const steps = cleanUp.reverse();
  cleanUp = [];
  // Every step runs even when one fails: a scratch folder goes whatever else went wrong.
  let failure: unknown;
  for (const step of steps) await step().catch((error: unknown) => (failure ??= error));
  if (failure !== undefined) throw failure;
});

async function setUp() {
  const database = await databaseThatOutlivesItsProcesses();
  cleanUp.push(database.remove);
  /** A sandbox on a connection of its own, as a process starting would make. */
  const start = async (options: { settleRefundsAfterMs?: number } = {}) => {
    const sandbox = sandboxOn(await database.open(), options);
    cleanUp.push(() => sandbox.stop().catch(() => undefined));
    return sandbox;
  };
  return { start };
}

describe("the sandbox after a restart", () => {
  it("still knows a pending bank transfer: verify, the payer's page, and paying it with a signed webhook", async () => {
    const { start } = await setUp();
    const before = await start();
    const instructions = await before.client.chargeOffline(transfer);
    expect(await before.client.verify(transfer.reference)).toMatchObject({ status: "pending" });
    await before.stop();

    const after = await start();
    expect(await after.client.verify(transfer.reference)).toMatchObject({
      status: "pending",
      amountKobo: 12_000_000,
      channel: "bank_transfer",
    });
    const page = await (await after.app.request(`/simulate/${transfer.reference}`)).text();
    if (instructions.channel !== "bank_transfer")
      throw new Error("expected a bank transfer's account");
    expect(page).toContain(instructions.account_number);

    const paid = await after.app.request(`/simulate/${transfer.reference}`, {
      method: "POST",
      body: new FormData(),
    });
    expect(await paid.text()).toContain("The signed charge.success webhook was delivered");
    expect(await after.client.verify(transfer.reference)).toMatchObject({
      status: "success",
      amountKobo: 12_000_000,
    });
    const [webhook] = after.webhooks;
    expect(isValidPaystackSignature(webhook!.body, webhook!.signature, SECRET)).toBe(true);
    expect(JSON.parse(webhook!.body)).toMatchObject({
      event: "charge.success",
      data: { reference: transfer.reference, status: "success", metadata: { student_id: 42 } },
    });
  });

  it("refuses a reference used before the restart, and numbers new transactions after the old ones", async () => {
    const { start } = await setUp();
    const before = await start();
    await before.client.chargeOffline(transfer);
    const first = (
      await (
        await before.app.request(`/transaction/verify/${transfer.reference}`, {
          headers: { Authorization: `Bearer ${SECRET}` },
        })
      ).json()
    ).data;
    await before.stop();

    const after = await start();
    const error = await after.client.chargeOffline(transfer).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(PaystackError);
    expect((error as PaystackError).paystackMessage).toBe("Duplicate Transaction Reference");
    await after.client.chargeOffline({ ...transfer, reference: "FEES-2025-0043" });
    const second = (
      await (
        await after.app.request("/transaction/verify/FEES-2025-0043", {
          headers: { Authorization: `Bearer ${SECRET}` },
        })
      ).json()
    ).data;
    expect(second.id).toBeGreaterThan(first.id);
    // The same payer is the same customer, whichever instance saw them.
    expect(second.customer.customer_code).toBe(first.customer.customer_code);
  });
});

describe("refunds after a restart", () => {
  it("are settled once by the sandboxes that start after the one that took them stopped", async () => {
    const { start } = await setUp();
    // Without settleRefundsAfterMs this sandbox never settles the refund it takes.
    const before = await start();
    await before.client.chargeOffline(transfer);
    await before.app.request(`/__sandbox/transactions/${transfer.reference}/pay`, {
      method: "POST",
      headers: { Authorization: `Bearer ${SECRET}` },
    });
    await before.client.refund({
      reference: transfer.reference,
      amountKobo: transfer.amountKobo,
      merchantNote: "Paid twice",
    });
    await before.stop();

    const one = await start({ settleRefundsAfterMs: 0 });
    const two =
      process.env.TEST_DATABASE === "postgres"
        ? await start({ settleRefundsAfterMs: 0 })
        : sandboxOn(one.handle, { settleRefundsAfterMs: 0 });
    const refundEvents = () =>
      [...one.webhooks, ...two.webhooks].map((webhook) => JSON.parse(webhook.body).event);
    await vi.waitFor(() => expect(refundEvents()).toEqual(["refund.processed"]));
    expect(await one.client.verify(transfer.reference)).toMatchObject({ status: "reversed" });
    // Both have looked by now; neither settles it a second time.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(refundEvents()).toEqual(["refund.processed"]);
  });
});

describe("two sandboxes on one database at once", () => {
  it("take a reference once and send one webhook for a payment both are asked to mark paid", async () => {
    const { start } = await setUp();
    const one = await start();
    // PostgreSQL: another pool, as another process would have. A PGlite folder belongs to one
    // process, so there the second sandbox shares the first one's connection.
    const two = process.env.TEST_DATABASE === "postgres" ? await start() : sandboxOn(one.handle);
    const results = await Promise.allSettled([
      one.client.chargeOffline(transfer),
      two.client.chargeOffline(transfer),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);

    const pay = (sandbox: typeof one) =>
      sandbox.app.request(`/__sandbox/transactions/${transfer.reference}/pay`, {
        method: "POST",
        headers: { Authorization: `Bearer ${SECRET}` },
      });
    const answers = await Promise.all([pay(one), pay(two)]);
    const webhooks = await Promise.all(
      answers.map(async (answer) => (await answer.json()).data.webhook),
    );
    expect(webhooks.sort()).toEqual(["delivered", "not sent"]);
    expect(one.webhooks.length + two.webhooks.length).toBe(1);
  });
});
