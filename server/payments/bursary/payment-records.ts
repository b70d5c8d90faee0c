import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  lte,
  notExists,
  or,
  sql,
  type SQL,
} from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "../../db/client.ts";
import {
  feeStatusFlags,
  paymentEvents,
  payments,
  refunds,
  staff,
  students,
} from "../../db/schema.ts";
import { escapeLike, nameLike } from "../../students/name-search.ts";
import { ApiError } from "../../http/errors.ts";
import type {
  PaymentDetail,
  PaymentSearchPage,
  PaymentSearchQuery,
  PaymentSummary,
} from "../../../common/payments/bursary.ts";
import { dayEnd, dayStart } from "./reconciliation.ts";
import { gatewayOf, type PaymentGateways } from "../gateway.ts";

export const PAYMENT_PAGE_SIZE = 25;

/** A reference (exact or its start), a matric number, or a name in either order, or part of one. */
function matching(q: string): SQL | undefined {
  if (!q) return undefined;
  const pattern = `%${escapeLike(q)}%`;
  return or(
    ilike(payments.reference, `${escapeLike(q)}%`),
    ilike(students.matricNo, pattern),
    nameLike(q),
  );
}

const columns = {
  payment: payments,
  surname: students.surname,
  othername: students.othername,
  matricNo: students.matricNo,
  flag: feeStatusFlags.reason,
};
type Found = {
  payment: typeof payments.$inferSelect;
  surname: string;
  othername: string;
  matricNo: string | null;
  flag: string | null;
};

function toSummary(row: Found): PaymentSummary {
  const { payment } = row;
  return {
    reference: payment.reference,
    student_id: payment.studentId,
    student_name: `${row.surname} ${row.othername}`,
    matric_no: row.matricNo,
    option: payment.paymentOption,
    level: payment.level,
    session: payment.session,
    amount_kobo: payment.amountKobo,
    currency: payment.currency,
    status: payment.status,
    generated_at: payment.generatedAt.toISOString(),
    paid_at: payment.paidAt?.toISOString() ?? null,
    flagged: row.flag !== null,
  };
}

const base = (db: Database) =>
  db
    .select(columns)
    .from(payments)
    .innerJoin(students, eq(students.id, payments.studentId))
    .leftJoin(feeStatusFlags, eq(feeStatusFlags.paymentId, payments.id));

/** Payments newest first, by reference, matric number, name, the day started, status. */
export async function searchPayments(
  db: Database,
  query: PaymentSearchQuery,
): Promise<PaymentSearchPage> {
  const where = and(
    matching(query.q),
    query.status ? eq(payments.status, query.status) : undefined,
    query.from ? gte(payments.generatedAt, dayStart(query.from)) : undefined,
    query.to ? lte(payments.generatedAt, dayEnd(query.to)) : undefined,
  );
  const [total] = await db
    .select({ rows: count() })
    .from(payments)
    .innerJoin(students, eq(students.id, payments.studentId))
    .where(where);
  const rows = await base(db)
    .where(where)
    .orderBy(desc(payments.generatedAt), desc(payments.id))
    .limit(PAYMENT_PAGE_SIZE)
    .offset((query.page - 1) * PAYMENT_PAGE_SIZE);
  return {
    data: rows.map(toSummary),
    total: total?.rows ?? 0,
    page: query.page,
    page_size: PAYMENT_PAGE_SIZE,
  };
}

/** One payment with its whole history from payment_events and its refunds. */
export async function paymentDetail(
  db: Database,
  gateways: PaymentGateways,
  reference: string,
): Promise<PaymentDetail> {
  const [row] = await base(db).where(eq(payments.reference, reference));
  if (!row) throw new ApiError(404, "There is no payment with that reference.");
  const id = row.payment.id;
  const approver = alias(staff, "approver");
  const [events, refundRows] = await Promise.all([
    db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.paymentId, id))
      .orderBy(asc(paymentEvents.at), asc(paymentEvents.id)),
    db
      .select({ refund: refunds, by: staff.name, approvedBy: approver.name })
      .from(refunds)
      .innerJoin(staff, eq(staff.id, refunds.requestedBy))
      .leftJoin(
        approver,
        eq(approver.id, sql`coalesce(${refunds.approvedBy}, ${refunds.declinedBy})`),
      )
      .where(eq(refunds.paymentId, id))
      .orderBy(asc(refunds.id)),
  ]);
  return {
    ...toSummary(row),
    ...gatewayFacts(gateways, row.payment),
    paid_amount_kobo: row.payment.paidAmountKobo,
    paid_currency: row.payment.paidCurrency,
    gateway_response: row.payment.gatewayResponse,
    channel: row.payment.channel,
    flag: row.flag,
    events: events.map((event) => ({
      at: event.at.toISOString(),
      kind: event.kind,
      detail: event.detail,
    })),
    refunds: refundRows.map(({ refund, by, approvedBy }) => ({
      id: refund.id,
      amount_kobo: refund.amountKobo,
      status: refund.status,
      reason: refund.reason,
      requested_at: refund.requestedAt.toISOString(),
      requested_by: by,
      second_person: approvedBy,
      decline_reason: refund.declineReason,
      outside: refund.outside,
      transfer_reference: refund.transferReference,
    })),
  };
}

const waitingForApproval = (db: Database) =>
  db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.paymentId, payments.id), eq(refunds.status, "awaiting_approval")));

/**
 * The refund queue: duplicates and mismatches waiting (not those whose refund waits for its
 * second approver), refunds to pay by bank transfer, and the latest refunds asked for.
 */
export async function refundQueue(db: Database, gateways: PaymentGateways) {
  const waiting = await base(db)
    .where(
      and(inArray(payments.status, ["duplicate", "mismatch"]), notExists(waitingForApproval(db))),
    )
    .orderBy(asc(payments.paidAt), asc(payments.id));
  const refundsWithPayer = () =>
    db
      .select({
        refund: refunds,
        reference: payments.reference,
        surname: students.surname,
        othername: students.othername,
        matricNo: students.matricNo,
        by: staff.name,
      })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .innerJoin(students, eq(students.id, payments.studentId))
      .innerJoin(staff, eq(staff.id, refunds.requestedBy));
  // Every outside refund still to pay, however old: each is money the bursary owes a student.
  const toPay = await refundsWithPayer()
    .where(and(eq(refunds.outside, true), eq(refunds.status, "pending")))
    .orderBy(asc(refunds.requestedAt), asc(refunds.id));
  const recent = await refundsWithPayer()
    .orderBy(desc(refunds.requestedAt), desc(refunds.id))
    .limit(50);
  return {
    waiting: waiting.map((row) => ({
      ...toSummary(row),
      ...gatewayFacts(gateways, row.payment),
      paid_amount_kobo: row.payment.paidAmountKobo,
      paid_currency: row.payment.paidCurrency,
      gateway_response: row.payment.gatewayResponse,
    })),
    refunds: recent.map((row) => ({
      ...refundLine(row),
      status: row.refund.status,
      outside: row.refund.outside,
      payee: payeeOf(row.refund),
      transfer_reference: row.refund.transferReference,
    })),
    to_pay_outside: toPay.map((row) => ({ ...refundLine(row), payee: payeeOf(row.refund)! })),
  };
}

/** A refund as the bursary's lists name it: whose, how much, why and who asked. */
function refundLine(row: {
  refund: typeof refunds.$inferSelect;
  reference: string;
  surname: string;
  othername: string;
  matricNo: string | null;
  by: string;
}) {
  const { refund } = row;
  return {
    id: refund.id,
    reference: row.reference,
    student_name: `${row.surname} ${row.othername}`,
    matric_no: row.matricNo,
    amount_kobo: refund.amountKobo,
    currency: refund.currency,
    reason: refund.reason,
    requested_at: refund.requestedAt.toISOString(),
    requested_by: row.by,
  };
}

/** The payment's gateway as staff know it, and whether its refunds are paid outside the portal (decision 190). */
function gatewayFacts(gateways: PaymentGateways, payment: { gateway: string }) {
  const gateway = gatewayOf(gateways, payment);
  return { gateway: gateway.label, refund_outside: !gateway.offers.refundApi };
}

const payeeOf = (refund: typeof refunds.$inferSelect) =>
  refund.outside
    ? {
        account_name: refund.payeeAccountName!,
        account_number: refund.payeeAccountNumber!,
        bank: refund.payeeBank!,
      }
    : null;

/** Refunds waiting for a second approver, oldest first: what another bursar or an administrator decides. */
export async function waitingRefunds(db: Database, gateways: PaymentGateways) {
  const rows = await db
    .select({
      refund: refunds,
      payment: payments,
      surname: students.surname,
      othername: students.othername,
      matricNo: students.matricNo,
      by: staff.name,
    })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .innerJoin(students, eq(students.id, payments.studentId))
    .innerJoin(staff, eq(staff.id, refunds.requestedBy))
    .where(eq(refunds.status, "awaiting_approval"))
    .orderBy(asc(refunds.requestedAt), asc(refunds.id));
  return rows.map((row) => {
    const { refund, payment } = row;
    const paidKobo = payment.paidAmountKobo ?? payment.amountKobo;
    return {
      ...refundLine({ ...row, reference: payment.reference }),
      status: refund.status,
      paid_kobo: paidKobo,
      credited: refund.paymentStatusBefore === "success",
      whole: refund.amountKobo === paidKobo,
      requested_by_id: refund.requestedBy,
      gateway: gatewayOf(gateways, payment).label,
      outside: refund.outside,
      payee: payeeOf(refund),
    };
  });
}
