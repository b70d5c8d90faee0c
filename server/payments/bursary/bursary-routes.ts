import { Hono } from "hono";
import type { ApiDeps } from "../../deps.ts";
import type { ApiEnv } from "../../http/context.ts";
import { readJson, readParams, readQuery } from "../../http/validate.ts";
import {
  approveRefund,
  askRefund,
  checkRefund,
  declineRefund,
  markNotPaidOutside,
  markPaidOutside,
  refundForApproval,
  type RefundOutcome,
} from "../refunds.ts";
import { toCsv } from "../../csv/csv-file.ts";
import { requireStaff } from "../../auth/require-staff.ts";
import {
  DeclineRequest,
  GROUP_TITLES,
  NotPaidOutsideRequest,
  PaidOutsideRequest,
  PaymentActionRequest,
  PaymentSearchQuery,
  ReconciliationQuery,
  ReferenceParam,
  RefundIdParam,
  RefundRequest,
  refundTo,
} from "../../../common/payments/bursary.ts";
import { recordReversal, verifyAndCredit } from "./payment-actions.ts";
import { paymentDetail, refundQueue, searchPayments, waitingRefunds } from "./payment-records.ts";
import { reconcile } from "./reconciliation.ts";

const CSV_COLUMNS = [
  "group",
  "reference",
  "student",
  "matric_no",
  "session",
  "our_status",
  "our_amount",
  "our_currency",
  "gateway_status",
  "gateway_amount",
  "gateway_currency",
  "created_at",
  "note",
  "gateway",
];
const naira = (kobo: number | null) => (kobo === null ? null : (kobo / 100).toFixed(2));

/** The bursary's money work under /staff: payments, reconciliation, refunds (decisions 100-102). */
export function bursaryRoutes(deps: ApiDeps) {
  const { db } = deps;
  const app = new Hono<ApiEnv>();
  const bursar = requireStaff(deps, { roles: ["bursar"] });

  app.get("/staff/payments", bursar, async (c) =>
    c.json(await searchPayments(db, readQuery(c, PaymentSearchQuery))),
  );

  app.get("/staff/payments/:reference", bursar, async (c) => {
    const { reference } = readParams(c, ReferenceParam);
    return c.json({ data: await paymentDetail(db, deps.gateways, reference) });
  });

  app.get("/staff/reconciliation", bursar, async (c) =>
    c.json({ data: await reconcile(deps, readQuery(c, ReconciliationQuery)) }),
  );

  app.get("/staff/reconciliation.csv", bursar, async (c) => {
    const query = readQuery(c, ReconciliationQuery);
    const report = await reconcile(deps, query);
    const rows = report.rows.map((row) => [
      GROUP_TITLES[row.group],
      row.reference,
      row.student_name,
      row.matric_no,
      row.session,
      row.our_status,
      naira(row.our_amount_kobo),
      row.our_currency,
      row.gateway_status,
      naira(row.gateway_amount_kobo),
      row.gateway_currency,
      row.created_at,
      row.note,
      row.gateway,
    ]);
    c.header("content-type", "text/csv; charset=utf-8");
    c.header(
      "content-disposition",
      `attachment; filename="reconciliation-${query.from}-to-${query.to}.csv"`,
    );
    return c.body(toCsv(CSV_COLUMNS, rows));
  });

  app.post("/staff/reconciliation/credit", bursar, async (c) => {
    const { reference } = await readJson(c, PaymentActionRequest);
    const { message } = await verifyAndCredit(deps, c.var.staff.id, reference);
    return c.json({ status: "success", message });
  });

  app.post("/staff/reconciliation/uncredit", bursar, async (c) => {
    const { reference } = await readJson(c, PaymentActionRequest);
    const { message } = await recordReversal(deps, c.var.staff.id, reference);
    return c.json({ status: "success", message });
  });

  app.get("/staff/refunds", bursar, async (c) =>
    c.json({ data: await refundQueue(db, deps.gateways) }),
  );

  // A second approver may be another bursary officer or an administrator (decision 151).
  const approver = requireStaff(deps, { roles: ["bursar", "admin"] });
  app.get("/staff/refunds/awaiting", approver, async (c) =>
    c.json({ data: await waitingRefunds(db, deps.gateways) }),
  );

  app.post("/staff/refunds/check", bursar, async (c) =>
    c.json({ data: await checkRefund(deps, await readJson(c, RefundRequest)) }),
  );

  app.post("/staff/refunds", bursar, async (c) => {
    const outcome = await askRefund(deps, c.var.staff.id, await readJson(c, RefundRequest));
    return c.json({ status: "success", message: refundMessage(outcome) }, 201);
  });

  app.get("/staff/refunds/:id", approver, async (c) =>
    c.json({ data: await refundForApproval(deps, readParams(c, RefundIdParam).id) }),
  );

  app.post("/staff/refunds/:id/approve", approver, async (c) => {
    const outcome = await approveRefund(deps, c.var.staff.id, readParams(c, RefundIdParam).id);
    return c.json({ status: "success", message: `Refund approved: ${refundMessage(outcome)}` });
  });

  app.post("/staff/refunds/:id/decline", approver, async (c) => {
    const { id } = readParams(c, RefundIdParam);
    const { reason } = await readJson(c, DeclineRequest);
    const refund = await declineRefund(deps, c.var.staff.id, id, reason);
    return c.json({
      status: "success",
      message: `Refund declined: ${refundTo(refund)} for payment ${refund.reference} will not be paid. The payment is unchanged.`,
    });
  });

  // A refund the bursary pays by bank transfer, outside the portal (decision 190).
  app.post("/staff/refunds/:id/paid-outside", bursar, async (c) => {
    const { id } = readParams(c, RefundIdParam);
    const { transfer_reference } = await readJson(c, PaidOutsideRequest);
    const paid = await markPaidOutside(deps, c.var.staff.id, id, transfer_reference);
    const fees = paid.counts
      ? " The payment still counts towards the student's fees."
      : " The payment no longer counts towards the student's fees.";
    return c.json({
      status: "success",
      message: `Refund of ${refundTo(paid)} for payment ${paid.reference} marked paid outside the portal, by the transfer ${transfer_reference}.${fees}`,
    });
  });

  app.post("/staff/refunds/:id/not-paid-outside", bursar, async (c) => {
    const { id } = readParams(c, RefundIdParam);
    const { reason } = await readJson(c, NotPaidOutsideRequest);
    const refund = await markNotPaidOutside(deps, c.var.staff.id, id, reason);
    return c.json({
      status: "success",
      message: `Refund of ${refundTo(refund)} for payment ${refund.reference} marked not paid. The payment is ${refund.status} again; refund it afresh with the right bank details.`,
    });
  });

  return app;
}

/** The outcome in words: who gets how much, and what happens next. */
function refundMessage(outcome: RefundOutcome) {
  const who = `${refundTo(outcome)} for payment ${outcome.reference}`;
  if (outcome.state === "waiting") {
    const then = outcome.outside ? "it is paid by bank transfer" : `${outcome.gateway} is asked`;
    return `Refund waiting for a second approver: ${who}. Another bursary officer or an administrator approves or declines it under Refunds; ${then} only then.`;
  }
  const fees = !outcome.credited
    ? ""
    : outcome.whole
      ? " The payment no longer counts towards the student's fees."
      : " The payment still counts towards the student's fees.";
  if (outcome.state === "to-pay-outside") {
    const payee = outcome.payee!;
    return `Refund of ${who} recorded, to pay outside the portal: ${outcome.gateway} has no refunds. Pay it by bank transfer to ${payee.account_name}, account ${payee.account_number} at ${payee.bank}, then mark it paid under Refunds with the bank's transfer reference.${fees}`;
  }
  return `Refund of ${who} asked of Paystack. It shows as refunded when Paystack confirms it.${fees}`;
}
