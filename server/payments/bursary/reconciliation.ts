import { and, eq, gte, inArray, lte } from "drizzle-orm";
import type { ApiDeps, OneByOneSettings } from "../../deps.ts";
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
 * own record of them (decision 101): a gateway that lists its transactions (Paystack) by its
 * list for the same days, paged; one that lists none (Remita) payment by payment (decision 190).
 * Reads only: nothing changes.
 */
export async function reconcile(
  deps: Pick<ApiDeps, "db" | "gateways" | "now" | "oneByOneReconciliation">,
  query: ReconciliationQuery,
): Promise<ReconciliationReport> {
  const from = dayStart(query.from);
  const to = dayEnd(query.to);
  const [listed, ours] = await Promise.all([
    listEveryGateway(deps, from, new Date(to.getTime() + GATEWAY_MARGIN_MS)),
    ourPayments(deps, from, to),
  ]);
  const listing = (payment: Ours["payment"]) =>
    gatewayOf(deps.gateways, payment).offers.transactionList;
  const byReference = new Map(ours.map((row) => [row.payment.reference, row]));
  const rows: ReconciliationRow[] = [];
  const seen = new Set<string>();
  for (const transaction of listed) {
    const mine = byReference.get(transaction.reference);
    if (!mine && transaction.createdAt > to) continue;
    seen.add(transaction.reference);
    const placed = place(mine?.payment, transaction);
    if (placed) rows.push(toRow(placed, mine, transaction, transaction.gateway));
  }
  for (const mine of ours) {
    if (
      listing(mine.payment) &&
      mine.payment.status === "success" &&
      !seen.has(mine.payment.reference)
    ) {
      const gateway = gatewayOf(deps.gateways, mine.payment);
      rows.push(
        toRow(
          {
            group: "credited_unknown",
            note: `${gateway.label} lists no such transaction`,
            action: null,
          },
          mine,
          null,
          gateway,
        ),
      );
    }
  }
  const unlisting = Object.values(deps.gateways).filter(
    (gateway) => !gateway.offers.transactionList,
  );
  for (const gateway of unlisting) {
    const theirs = ours.filter(
      (mine) =>
        mine.payment.gateway === gateway.name &&
        (!query.session || mine.payment.session === query.session),
    );
    rows.push(...(await reconcileOneByOne(deps, gateway, theirs)));
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
            (sum, row) => sum + (row.gateway_amount_kobo ?? row.our_amount_kobo ?? 0),
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
  transaction: Omit<Listed, "gateway"> | null,
  gateway: PaymentGateway,
): ReconciliationRow {
  const payment = mine?.payment;
  return {
    ...placement,
    gateway: gateway.label,
    reference: payment?.reference ?? transaction!.reference,
    student_name: mine?.name ?? null,
    matric_no: mine?.matricNo ?? null,
    session: payment?.session ?? null,
    our_status: payment?.status ?? null,
    our_amount_kobo: payment?.amountKobo ?? null,
    our_currency: payment?.currency ?? null,
    gateway_status: transaction?.status ?? null,
    gateway_amount_kobo: transaction?.amountKobo ?? null,
    gateway_currency: transaction?.currency ?? null,
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

/** Ten at a time with a quarter-second pause: at most about 40 a second, 1,000 in under a minute. */
export const ONE_BY_ONE_DEFAULTS: OneByOneSettings = {
  batchSize: 10,
  pauseMs: 250,
  maxChecks: 1000,
};
/** An unpaid RRR older than this is not asked about: Remita's invoices are paid within it or never. */
export const UNPAID_CHECKED_FOR_MS = 90 * 24 * 60 * 60_000;
// A gateway that has failed this many calls in a row is down: the rest are listed unchecked.
const GIVE_UP_AFTER_FAILURES = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Our payments with a gateway that lists no transactions (Remita), set against that gateway
 * (decision 190). A credited or held payment is placed from our own record of the gateway's
 * confirmation, which crediting stored (`paid_amount_kobo`, `paid_currency`): it was confirmed
 * once already and is not asked again. Every unpaid one with the gateway's reference (an RRR)
 * younger than 90 days is asked through `verify`, in batches with a pause between them: one paid
 * there is "paid, not credited" with the one-click credit. A payment the gateway did not answer
 * about is listed unchecked, never guessed.
 */
async function reconcileOneByOne(
  deps: Pick<ApiDeps, "now" | "oneByOneReconciliation">,
  gateway: PaymentGateway,
  ours: Ours[],
): Promise<ReconciliationRow[]> {
  // An unset setting arrives as undefined: it keeps its default.
  const given = Object.entries(deps.oneByOneReconciliation ?? {}).filter(
    ([, value]) => value !== undefined,
  );
  const settings: OneByOneSettings = { ...ONE_BY_ONE_DEFAULTS, ...Object.fromEntries(given) };
  const rows: ReconciliationRow[] = [];
  const recorded = (mine: Ours, placement: Placement) =>
    rows.push(toRow(placement, mine, ourRecordOf(mine.payment), gateway));
  const oldest = deps.now().getTime() - UNPAID_CHECKED_FOR_MS;
  const toAsk: Ours[] = [];
  for (const mine of ours) {
    const { payment } = mine;
    if (payment.status === "success") {
      const record = ourRecordOf(payment);
      recorded(
        mine,
        record.amountKobo === payment.amountKobo && record.currency === payment.currency
          ? {
              group: "matched",
              note: `As ${gateway.label} confirmed it when credited`,
              action: null,
            }
          : {
              group: "mismatch",
              note: "Credited here at another amount or currency",
              action: null,
            },
      );
    } else if (payment.status === "mismatch") {
      recorded(mine, {
        group: "mismatch",
        note: "Paid another amount or currency: refund it",
        action: null,
      });
    } else if (HELD.includes(payment.status)) {
      recorded(mine, { group: "refunds", note: `Here: ${payment.status}`, action: null });
    } else if (payment.gatewayReference && payment.generatedAt.getTime() > oldest) {
      toAsk.push(mine);
    }
  }
  if (toAsk.length > settings.maxChecks) {
    throw new ApiError(
      400,
      `${gateway.label} would be asked about ${toAsk.length} unpaid payments for these days, more than the ${settings.maxChecks} one reconciliation asks about. Choose a shorter range.`,
    );
  }
  let failuresInARow = 0;
  for (let start = 0; start < toAsk.length; start += settings.batchSize) {
    if (start > 0 && settings.pauseMs > 0) await sleep(settings.pauseMs);
    const batch = toAsk.slice(start, start + settings.batchSize);
    const answers = await Promise.all(
      batch.map(async (mine) => {
        if (failuresInARow >= GIVE_UP_AFTER_FAILURES) return "unasked" as const;
        try {
          return await gateway.verify(mine.payment);
        } catch (error) {
          if (!(error instanceof GatewayError)) throw error;
          return "unanswered" as const;
        }
      }),
    );
    batch.forEach((mine, index) => {
      const answer = answers[index]!;
      if (answer === "unasked" || answer === "unanswered") {
        if (answer === "unanswered") failuresInARow += 1;
        rows.push(
          toRow(
            {
              group: "unchecked",
              note: `${gateway.label} did not answer: reconcile again later`,
              action: null,
            },
            mine,
            null,
            gateway,
          ),
        );
        return;
      }
      failuresInARow = 0;
      if (answer?.status !== "success") return;
      rows.push(
        toRow(
          { group: "paid_not_credited", note: `Here: ${mine.payment.status}`, action: "credit" },
          mine,
          { ...answer, createdAt: mine.payment.generatedAt },
          gateway,
        ),
      );
    });
  }
  return rows;
}

/** What the gateway said was paid when it confirmed the payment, as crediting recorded it. */
const ourRecordOf = (payment: Ours["payment"]) => ({
  reference: payment.reference,
  status: "success",
  amountKobo: payment.paidAmountKobo ?? payment.amountKobo,
  currency: payment.paidCurrency ?? payment.currency,
  paidAt: payment.paidAt,
  channel: payment.channel,
  gatewayResponse: payment.gatewayResponse,
  createdAt: payment.generatedAt,
});

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
