import { Hono } from "hono";
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import { USSD_BANKS } from "../../common/payments/ussd-banks.ts";
import { refusalFor } from "./sandbox-requests.ts";
import { renderSimulatePage, renderSimulateDone } from "./sandbox-simulate-page.ts";
import { renderCheckoutNotFound } from "./sandbox-checkout-page.ts";
import { randomCode } from "./sandbox-store.ts";
import type { SandboxStore, SandboxTransaction } from "./sandbox-store.ts";
import type { WebhookDelivery } from "./sandbox-simulate-page.ts";

const USSD_TYPES = USSD_BANKS.map((bank) => bank.code) as [string, ...string[]];
const RECEIVING_BANK = { slug: "test-bank", name: "Test Bank", id: 24 };
const DEFAULT_ACCOUNT_LIFETIME_MS = 30 * 60_000;

// POST /charge as the sandbox accepts it: ChargeCreate with exactly one of the two channels
// that need no card (the only ones the portal uses).
const ChargeRequest = z
  .object({
    email: z.email(),
    amount: z
      .union([z.number(), z.string().regex(/^\d+$/).transform(Number)])
      .pipe(z.number().int().positive()),
    reference: z
      .string()
      .regex(/^[A-Za-z0-9.=-]+$/)
      .max(100)
      .optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    bank_transfer: z.object({ account_expires_at: z.iso.datetime().optional() }).optional(),
    ussd: z.object({ type: z.enum(USSD_TYPES) }).optional(),
  })
  .refine((body) => Boolean(body.bank_transfer) !== Boolean(body.ussd), {
    path: ["channel"],
    message: "Send bank_transfer or ussd",
  });

/**
 * The sandbox's Charge API for bank transfers and USSD, and the page where a developer plays the
 * payer: `GET /simulate/:reference` shows the pending charge, and posting it (optionally with
 * another amount than the one charged) marks it paid and sends the signed `charge.success`.
 */
export function sandboxChargeRoutes(options: {
  store: SandboxStore;
  now: () => Date;
  requireSecretKey: MiddlewareHandler;
  sendChargeSuccess: (transaction: SandboxTransaction) => Promise<WebhookDelivery>;
}) {
  const { store, now, sendChargeSuccess } = options;
  const app = new Hono();

  app.post("/charge", options.requireSecretKey, async (c) => {
    const parsed = ChargeRequest.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) return c.json(refusalFor(parsed.error), 400);
    const { email, amount, metadata, bank_transfer, ussd } = parsed.data;
    const createdAt = now();
    const asked = bank_transfer?.account_expires_at;
    // What the payer is shown: the code to dial, or the account to transfer to until it expires.
    const offline = ussd
      ? { channel: "ussd" as const, ussdCode: `*${ussd.type}*33*4*${digits(5)}#` }
      : {
          channel: "bank_transfer" as const,
          accountNumber: digits(10),
          accountExpiresAt: asked
            ? new Date(asked)
            : new Date(createdAt.getTime() + DEFAULT_ACCOUNT_LIFETIME_MS),
        };
    const transaction = await store.create(
      {
        reference: parsed.data.reference,
        email,
        amountKobo: amount,
        currency: "NGN",
        callbackUrl: null,
        metadata: metadata ?? "",
        ...offline,
      },
      createdAt,
    );
    if (!transaction) {
      return c.json(
        { status: false, message: "Duplicate Transaction Reference", type: "validation_error" },
        400,
      );
    }
    const { reference, ussdCode, accountNumber, accountExpiresAt } = transaction;
    if (ussdCode) {
      return c.json({
        status: true,
        message: "Charge attempted",
        data: {
          reference,
          status: "pay_offline",
          display_text: `Please dial ${ussdCode} on your mobile phone to complete the transaction`,
          ussd_code: ussdCode,
        },
      });
    }
    return c.json({
      status: true,
      message: "Charge attempted",
      data: {
        status: "pending_bank_transfer",
        display_text: "Please make a transfer to the account specified",
        reference,
        amount,
        account_name: "PAYSTACK CHECKOUT",
        account_number: accountNumber,
        bank: RECEIVING_BANK,
        account_expires_at: accountExpiresAt!.toISOString(),
      },
    });
  });

  // Only charges made through POST /charge have a payer's side to play.
  const offlineCharge = async (reference: string) => {
    const transaction = await store.findByReference(reference);
    return transaction && transaction.channel !== "card" ? transaction : undefined;
  };

  app.get("/simulate/:reference", async (c) => {
    const transaction = await offlineCharge(c.req.param("reference"));
    c.header("Cache-Control", "no-store");
    if (!transaction) return c.html(renderCheckoutNotFound(), 404);
    return c.html(renderSimulatePage(transaction, describe(transaction)));
  });

  app.post("/simulate/:reference", async (c) => {
    const transaction = await offlineCharge(c.req.param("reference"));
    if (!transaction) return c.html(renderCheckoutNotFound(), 404);
    const form = await c.req.formData().catch(() => new FormData());
    const received = parseNaira(String(form.get("amount") ?? ""));
    const paid = await store.markPaid(transaction, now(), received ?? undefined);
    const webhook = paid ? await sendChargeSuccess(paid) : "not sent";
    return c.html(renderSimulateDone(paid ?? transaction, webhook));
  });

  return app;
}

function describe(charge: SandboxTransaction): string {
  return charge.ussdCode
    ? `USSD code ${charge.ussdCode}`
    : `Transfer to ${RECEIVING_BANK.name} ${charge.accountNumber}, valid until ${charge.accountExpiresAt?.toISOString()}`;
}

/** "120,000" or "120000.50" naira as kobo; null for anything else (then the charged amount arrives). */
function parseNaira(text: string): number | null {
  const cleaned = text.replaceAll(",", "").trim();
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * 100);
}

function digits(count: number): string {
  return Array.from(randomCode(count), (character) => String(character.charCodeAt(0) % 10)).join(
    "",
  );
}
