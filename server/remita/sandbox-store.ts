import { randomInt } from "node:crypto";
import { and, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import {
  remitaSandboxFaults as faults,
  remitaSandboxInvoices as invoices,
  type SandboxLineItem,
} from "./sandbox-schema.ts";

/** How a sandbox invoice is paid: Remita's card page, or a bank's counter. */
export type SandboxChannel = "CARDPAYMENT" | "BRANCH";
export type SandboxInvoiceStatus = "pending" | "paid" | "failed" | "cancelled";

/** One invoice (an RRR) as the sandbox remembers it. */
export type SandboxInvoice = Omit<
  typeof invoices.$inferSelect,
  "status" | "channel" | "arrivalChannel"
> & {
  status: SandboxInvoiceStatus;
  channel: SandboxChannel | null;
  arrivalChannel: SandboxChannel | null;
};

export type NewSandboxInvoice = Pick<
  SandboxInvoice,
  | "merchantId"
  | "serviceTypeId"
  | "orderId"
  | "amountKobo"
  | "payerName"
  | "payerEmail"
  | "payerPhone"
  | "description"
> & { lineItems: SandboxLineItem[] | null; customFields: { name: string; value: string }[] | null };

/** Shares of the sandbox's API calls that fail on purpose (sandbox-schema.ts). */
export type SandboxFaults = { errorShare: number; timeoutShare: number };

// An invoice can still be paid unless it was paid or deactivated; a declined card leaves it payable.
const PAYABLE: SandboxInvoiceStatus[] = ["pending", "failed"];

const toInvoice = (row: typeof invoices.$inferSelect) => row as SandboxInvoice;

/** A new RRR: twelve digits, not starting with 0, as Remita's are. */
export function newRrr(): string {
  return `${randomInt(1, 10)}${String(randomInt(0, 100_000_000_000)).padStart(11, "0")}`;
}

/**
 * The Remita sandbox's invoices, in its own tables of the portal's database. Every change is one
 * conditional statement, so any number of sandbox instances agree: an order id is invoiced once, an
 * invoice is paid once (one notification), and a bank payment due later arrives once, whichever
 * instance is first to see it due.
 */
export function createRemitaSandboxStore(db: Database) {
  async function findBy(where: ReturnType<typeof eq>) {
    const [row] = await db.select().from(invoices).where(where).limit(1);
    return row ? toInvoice(row) : undefined;
  }

  /** Marks a payable invoice paid; undefined (nothing changed) when it was not payable. */
  async function markPaid(id: number, channel: SandboxChannel, at: Date) {
    const [row] = await db
      .update(invoices)
      .set({
        status: "paid",
        channel,
        paidAt: at,
        arrivesAt: null,
        arrivalChannel: null,
        arrivalNotifies: null,
      })
      .where(and(eq(invoices.id, id), inArray(invoices.status, PAYABLE)))
      .returning();
    return row ? toInvoice(row) : undefined;
  }

  return {
    findByRrr: (rrr: string) => findBy(eq(invoices.rrr, rrr)),
    findByOrder: (merchantId: string, orderId: string) =>
      findBy(and(eq(invoices.merchantId, merchantId), eq(invoices.orderId, orderId))!),

    /** Records a new invoice under a fresh RRR; "duplicate" when the merchant used the order id already. */
    async create(fields: NewSandboxInvoice, now: Date): Promise<SandboxInvoice | "duplicate"> {
      // The unique constraints decide: a taken order id is refused, a colliding RRR drawn again.
      for (let attempt = 0; attempt < 5; attempt++) {
        const [row] = await db
          .insert(invoices)
          .values({ ...fields, rrr: newRrr(), status: "pending", createdAt: now })
          .onConflictDoNothing()
          .returning();
        if (row) return toInvoice(row);
        const existing = await findBy(
          and(eq(invoices.merchantId, fields.merchantId), eq(invoices.orderId, fields.orderId))!,
        );
        if (existing) return "duplicate";
      }
      throw new Error("The Remita sandbox could not draw an unused RRR");
    },

    markPaid,

    /** A declined card: failed, but still payable; unchanged unless it was pending. */
    async markDeclined(id: number): Promise<void> {
      await db
        .update(invoices)
        .set({ status: "failed" })
        .where(and(eq(invoices.id, id), eq(invoices.status, "pending")));
    },

    /** deactivate.json: "cancelled", or what stopped it ("paid", or "cancelled" already). */
    async cancel(id: number): Promise<"cancelled" | "paid"> {
      const [row] = await db
        .update(invoices)
        .set({ status: "cancelled", arrivesAt: null, arrivalChannel: null, arrivalNotifies: null })
        .where(and(eq(invoices.id, id), inArray(invoices.status, PAYABLE)))
        .returning({ id: invoices.id });
      if (row) return "cancelled";
      const [now] = await db
        .select({ status: invoices.status })
        .from(invoices)
        .where(eq(invoices.id, id));
      return now?.status === "paid" ? "paid" : "cancelled";
    },

    async setResponseUrl(id: number, responseUrl: string): Promise<void> {
      await db.update(invoices).set({ responseUrl }).where(eq(invoices.id, id));
    },

    /** A bank payment that arrives at `at`; false when the invoice can no longer be paid. */
    async scheduleArrival(
      id: number,
      arrival: { at: Date; channel: SandboxChannel; notifies: boolean },
    ): Promise<boolean> {
      const rows = await db
        .update(invoices)
        .set({
          arrivesAt: arrival.at,
          arrivalChannel: arrival.channel,
          arrivalNotifies: arrival.notifies,
        })
        .where(and(eq(invoices.id, id), inArray(invoices.status, PAYABLE)))
        .returning({ id: invoices.id });
      return rows.length > 0;
    },

    /**
     * Pays every invoice whose bank payment is due by `now`, at the moment it was due, and answers
     * them: each is answered to one caller only, who sends its notification.
     */
    async settleArrivals(now: Date): Promise<SandboxInvoice[]> {
      // Only the due time is cleared: the channel and the notification flag stay, for the caller.
      const rows = await db
        .update(invoices)
        .set({
          status: "paid",
          channel: sql`${invoices.arrivalChannel}`,
          paidAt: sql`${invoices.arrivesAt}`,
          arrivesAt: null,
        })
        .where(
          and(
            isNotNull(invoices.arrivesAt),
            lte(invoices.arrivesAt, now),
            inArray(invoices.status, PAYABLE),
          ),
        )
        .returning();
      return rows.map(toInvoice);
    },

    async faults(): Promise<SandboxFaults> {
      const [row] = await db.select().from(faults).where(eq(faults.id, 1));
      return row ? { errorShare: row.errorShare, timeoutShare: row.timeoutShare } : NO_FAULTS;
    },

    async setFaults(given: SandboxFaults): Promise<void> {
      await db
        .insert(faults)
        .values({ id: 1, ...given })
        .onConflictDoUpdate({ target: faults.id, set: given });
    },
  };
}

export const NO_FAULTS: SandboxFaults = { errorShare: 0, timeoutShare: 0 };

export type RemitaSandboxStore = ReturnType<typeof createRemitaSandboxStore>;
