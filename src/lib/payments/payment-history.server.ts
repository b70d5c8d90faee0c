import { z } from "zod";
import { answerOf } from "../api/answer.ts";
import { loadPageData } from "../api/page-data.server.ts";
import type { ServerApi } from "../api/server-api.server.ts";
import { HostelInvoice, PaymentInfo } from "../../../common/payments/payment-record.ts";

const HostelInvoices = answerOf(z.array(HostelInvoice));

/** What /history/payments lists: school-fee payments and hostel invoices; null when not loaded. */
export function loadPaymentHistory(api: Pick<ServerApi, "get">, studentId: number) {
  return loadPageData("payment history", async () => {
    const [info, hostel] = await Promise.all([
      api.get(`/student/payment-info/${studentId}`, answerOf(PaymentInfo)),
      api.get(`/student/hostel-invoices/${studentId}`, HostelInvoices),
    ]);
    return { fees: info.data.school_fee_payment, hostel: hostel.data };
  });
}
