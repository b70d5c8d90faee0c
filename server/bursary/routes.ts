import { Hono } from "hono";
import type { ApiDeps } from "../app.ts";
import type { ApiEnv } from "../http/context.ts";
import { readJson, readParams, readQuery } from "../http/validate.ts";
import { startRefund } from "../payments/refunds.ts";
import { toCsv } from "../staff/csv/csv-file.ts";
import { requireStaff } from "../staff/require-staff.ts";
import {
  formatKobo,
  GROUP_TITLES,
  PaymentActionRequest,
  PaymentSearchQuery,
  ReconciliationQuery,
  ReferenceParam,
  RefundRequest,
} from "../../src/lib/staff/bursary.ts";
import { recordReversal, verifyAndCredit } from "./payment-actions.ts";
import { paymentDetail, refundQueue, searchPayments } from "./payment-records.ts";
import { reconcile } from "./reconciliation.ts";

const CSV_COLUMNS = ["group", "reference", "student", "matric_no", "session", "our_status", "our_amount", "our_currency", "paystack_status", "paystack_amount", "paystack_currency", "created_at", "note"];
const naira = (kobo: number | null) => (kobo === null ? null : (kobo / 100).toFixed(2));

/** The bursary's money work under /staff: payments, reconciliation, refunds (decisions 100-102). */
export function bursaryRoutes(deps: ApiDeps) {
  const { db } = deps;
  const app = new Hono<ApiEnv>();
  const bursar = requireStaff(deps, { roles: ["bursar"] });

  app.get("/staff/payments", bursar, async (c) => c.json(await searchPayments(db, readQuery(c, PaymentSearchQuery))));

  app.get("/staff/payments/:reference", bursar, async (c) => {
    const { reference } = readParams(c, ReferenceParam);
    return c.json({ data: await paymentDetail(db, reference) });
  });

  app.get("/staff/reconciliation", bursar, async (c) => c.json({ data: await reconcile(deps, readQuery(c, ReconciliationQuery)) }));

  app.get("/staff/reconciliation.csv", bursar, async (c) => {
    const query = readQuery(c, ReconciliationQuery);
    const report = await reconcile(deps, query);
    const rows = report.rows.map((row) => [
      GROUP_TITLES[row.group], row.reference, row.student_name, row.matric_no, row.session, row.our_status, naira(row.our_amount_kobo), row.our_currency,
      row.paystack_status, naira(row.paystack_amount_kobo), row.paystack_currency, row.created_at, row.note,
    ]);
    c.header("content-type", "text/csv; charset=utf-8");
    c.header("content-disposition", `attachment; filename="reconciliation-${query.from}-to-${query.to}.csv"`);
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

  app.get("/staff/refunds", bursar, async (c) => c.json({ data: await refundQueue(db) }));

  app.post("/staff/refunds", bursar, async (c) => {
    const request = await readJson(c, RefundRequest);
    const refund = await startRefund(deps, c.var.staff.id, request);
    const message = `Paystack accepted a refund of ${formatKobo(refund.amountKobo, refund.currency)} for ${refund.reference}. It shows as refunded when Paystack confirms it.`;
    return c.json({ status: "success", message }, 201);
  });

  return app;
}
