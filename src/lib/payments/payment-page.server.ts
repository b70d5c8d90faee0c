import { z } from "zod";
import { ApiRefusal, type ServerApi } from "../api/server-api.server.ts";
import { answerOf } from "../api/answer.ts";
import type { QuoteAnswer } from "../../../common/payments/fee-request.ts";
import { OfflinePayment } from "../../../common/payments/offline-payment.ts";
import { GATEWAYS } from "../../../common/payments/gateway-names.ts";
import { isComplete, type FormChoice, type Quote } from "./choice.ts";

const QuoteBody = z.object({
  data: z.object({ amount: z.number(), gateways: z.array(z.enum(GATEWAYS)) }),
});

/** Asks the API for the price of a complete choice; its refusal (the spec's quote error) is kept as the reason. */
export async function loadQuote(api: ServerApi, choice: FormChoice): Promise<Quote> {
  if (!isComplete(choice)) return { state: "none" };
  const request = {
    payment_name: "schoolfees",
    payment_option: choice.option,
    payment_level: choice.level,
    payment_session: choice.session,
  };
  try {
    const answer: Pick<QuoteAnswer, "data"> = await api.send(
      "POST",
      "/student/generate-payment",
      request,
      QuoteBody,
    );
    return { state: "ready", amount: answer.data.amount, gateways: answer.data.gateways };
  } catch (error) {
    if (!(error instanceof ApiRefusal)) throw error;
    return { state: "refused", reason: error.message };
  }
}

/** One of the student's payments with its account or USSD code, or the API's reason it cannot be shown. */
export async function loadOfflinePayment(
  api: ServerApi,
  reference: string,
): Promise<OfflinePayment | { problem: string }> {
  try {
    const answer = await api.get(
      `/student/school-fee/${encodeURIComponent(reference)}`,
      answerOf(OfflinePayment),
    );
    return answer.data;
  } catch (error) {
    if (!(error instanceof ApiRefusal)) throw error;
    return { problem: error.message };
  }
}
