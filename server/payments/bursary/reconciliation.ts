import { and, eq, gte, inArray, lte } from "drizzle-orm";
import type { ApiDeps } from "../../deps.ts";
import { payments, students } from "../../db/schema.ts";
import { ApiError } from "../../http/errors.ts";
import {
  GatewayError,
  gatewayOf,
  type GatewayTransaction,
  type PaymentGateway,
} from "../gateway.ts";
import {
  RECONCILIATION_GROUPS,
  type ReconciliationGroup,
  type ReconciliationQuery,
  type ReconciliationReport,
  type ReconciliationRow,
} from "../../../common/payments/bursary.ts";

/** A transaction from a gateway's list, with the gateway that listed it. */
type Listed = GatewayTransaction & { createdAt: Date; gateway: PaymentGateway };
type Ours = { payment: typeof payments.$inferSelect; name: string; matricNo: string | null };

const PER_PAGE = 100;
const MAX_PAGES = 200;
// Our payment row is written just before the gateway creates its transaction: a payment started
// at 23:59:59 may be created there after midnight, so the gateway is asked a little further.
const GATEWAY_MARGIN_MS = 60 * 60_000;
const HELD = ["duplicate", "mismatch", "refunding", "refunded", "reversed"];
const NOT_YET = ["pending", "failed", "abandoned"];

/** Days are the college's: Africa/Lagos, UTC+1 all year. */
export const dayStart = (day: string) => new Date(`${day}T00:00:00.000+01:00`);
export const dayEnd = (day: string) => new Date(`${day}T23:59:59.999+01:00`);

/**
 * Sets our payments started in the date range (optionally one session's) against each gateway's
 * own list of transactions for the same days, paged (decision 101). Reads only: nothing changes.
 */
export async function reconcile(
  deps: Pick<ApiDeps, "db" | "gateways">,
  query: ReconciliationQuery,
): Promise<ReconciliationReport> {
  const from = dayStart(query.from);
  const to = dayEnd(query.to);
  const [listed, ours] = await Promise.all([
    listEveryGateway(deps, from, new Date(to.getTime() + GATEWAY_MARGIN_MS)),
    ourPayments(deps, from, to),
  ]);
  const byReference = new Map(ours.map((row) => [row.payment.reference, row]));
  const rows: ReconciliationRow[] = [];
  const seen = new Set<string>();
  for (const transaction of listed) {
    const mine = byReference.get(transaction.reference);
    if (!mine && transaction.createdAt > to) continue;
    seen.add(transaction.reference);
    const placed = place(mine?.payment, transaction);
    if (placed) rows.push(toRow(placed, mine, transaction));
  }
  for (const mine of ours) {
    if (mine.payment.status === "success" && !seen.has(mine.payment.reference)) {
      rows.push(
        toRow(
          {
            group: "credited_unknown",
            note: `${gatewayOf(deps.gateways, mine.payment).label} lists no such transaction`,
            action: null,
          },
          mine,
          null,
        ),
      );
    }
  }
  const kept = rows.filter((row) => !query.session || row.session === query.session);
  const totals = Object.fromEntries(
    RECONCILIATION_GROUPS.map((group) => {
      const inGroup = kept.filter((row) => row.group === group);
      return [
        group,
        {
          count: inGroup.length,
          amount_kobo: inGroup.reduce(
            (sum, row) => sum + (row.paystack_amount_kobo ?? row.our_amount_kobo ?? 0),
            0,
          ),
        },
      ];
    }),
  ) as ReconciliationReport["totals"];
  return { from: query.from, to: query.to, session: query.session ?? null, totals, rows: kept };
}

type Placement = { group: ReconciliationGroup; note: string; action: ReconciliationRow["action"] };

/** Which list a gateway's transaction and our payment (if any) belong in; null: no money either side. */
function place(payment: Ours["payment"] | undefined, transaction: Listed): Placement | null {
  const status = payment?.status;
  if (transaction.status === "success") {
    if (!payment)
      return {
        group: "paid_not_credited",
        note: "No payment here has this reference",
        action: null,
      };
    if (status === "success") {
      return transaction.amountKobo === payment.amountKobo &&
        transaction.currency === payment.currency
        ? { group: "matched", note: "", action: null }
        : { group: "mismatch", note: "Credited here at another amount or currency", action: null };
    }
    if (status === "mismatch")
      return {
        group: "mismatch",
        note: "Paid another amount or currency: refund it",
        action: null,
      };
    if (NOT_YET.includes(status!))
      return { group: "paid_not_credited", note: `Here: ${status}`, action: "credit" };
    return { group: "refunds", note: `Here: ${status}`, action: null };
  }
  if (status === "success") {
    return transaction.status === "reversed"
      ? {
          group: "credited_unknown",
          note: `Reversed at ${transaction.gateway.label} after we credited it`,
          action: "uncredit",
        }
      : {
          group: "credited_unknown",
          note: `${transaction.gateway.label} says ${transaction.status}`,
          action: null,
        };
  }
  if (transaction.status === "reversed" && (!payment || HELD.includes(status!))) {
    return {
      group: "refunds",
      note: payment ? `Here: ${status}` : "No payment here has this reference",
      action: null,
    };
  }
  return null;
}

function toRow(
  placement: Placement,
  mine: Ours | undefined,
  transaction: Listed | null,
): ReconciliationRow {
  const payment = mine?.payment;
  return {
    ...placement,
    reference: payment?.reference ?? transaction!.reference,
    student_name: mine?.name ?? null,
    matric_no: mine?.matricNo ?? null,
    session: payment?.session ?? null,
    our_status: payment?.status ?? null,
    our_amount_kobo: payment?.amountKobo ?? null,
    our_currency: payment?.currency ?? null,
    paystack_status: transaction?.status ?? null,
    paystack_amount_kobo: transaction?.amountKobo ?? null,
    paystack_currency: transaction?.currency ?? null,
    created_at: (payment?.generatedAt ?? transaction!.createdAt).toISOString(),
  };
}

async function ourPayments({ db }: Pick<ApiDeps, "db">, from: Date, to: Date): Promise<Ours[]> {
  const rows = await db
    .select({
      payment: payments,
      surname: students.surname,
      othername: students.othername,
      matricNo: students.matricNo,
    })
    .from(payments)
    .innerJoin(students, eq(students.id, payments.studentId))
    .where(
      and(
        gte(payments.generatedAt, from),
        lte(payments.generatedAt, to),
        inArray(payments.status, [...HELD, ...NOT_YET, "success"]),
      ),
    );
  return rows.map((row) => ({
    payment: row.payment,
    name: `${row.surname} ${row.othername}`,
    matricNo: row.matricNo,
  }));
}

/**
 * Every configured gateway's transactions for the days, each gateway's list read in full. A
 * gateway that lists nothing to merchants (Remita) is not asked: it would only refuse.
 */
async function listEveryGateway(
  { gateways }: Pick<ApiDeps, "gateways">,
  from: Date,
  to: Date,
): Promise<Listed[]> {
  const lists = await Promise.all(
    Object.values(gateways)
      .filter((gateway) => gateway.offers.transactionList)
      .map((gateway) => listGateway(gateway, from, to)),
  );
  return lists.flat();
}

async function listGateway(gateway: PaymentGateway, from: Date, to: Date): Promise<Listed[]> {
  const all: Listed[] = [];
  try {
    for (let page = 1; ; page++) {
      const answer = await gateway.listTransactions({ from, to, page, perPage: PER_PAGE });
      all.push(...answer.transactions.map((transaction) => ({ ...transaction, gateway })));
      if (page >= answer.pageCount) return all;
      if (page >= MAX_PAGES)
        throw new ApiError(
          400,
          `${gateway.label} lists more than ${MAX_PAGES * PER_PAGE} transactions for these days. Choose a shorter range.`,
        );
    }
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    throw new ApiError(
      502,
      `We could not get ${gateway.label}'s records just now. Try again in a few minutes.`,
    );
  }
}
