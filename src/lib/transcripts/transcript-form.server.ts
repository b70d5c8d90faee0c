import { z } from "zod";
import { ApiRefusal, type ServerApi } from "../api/server-api.server.ts";
import { answerOf } from "../api/answer.ts";
import { PaymentRecord } from "../../../common/payments/payment-record.ts";
import type { SchoolFeeAnswer } from "../../../common/payments/fee-request.ts";

// The Transcript page's forms, posted without JavaScript: each button names its `action`. The
// API decides everything (ownership, the fee, states); the page passes the fields on and shows
// the answer.

export const TRANSCRIPT_PATH = "/transcript";

export type TranscriptPost =
  | { redirect: string }
  | { checkout: string }
  /** The first press of Cancel: the page asks before anything is sent. */
  | { confirmCancel: string }
  | { notice?: string; problem?: string; fields?: Record<string, string>; status: number };

const Passthrough = z.object({ status: z.string() }).passthrough();
const Created = z.object({ message: z.string() });
const CHECKOUT_UNUSABLE =
  "We could not start the payment with Paystack. Please try again in a few minutes.";

export async function handleTranscriptPost(
  api: ServerApi,
  form: FormData,
): Promise<TranscriptPost> {
  const field = (name: string) => String(form.get(name) ?? "");
  try {
    switch (field("action")) {
      case "request": {
        await api.send(
          "POST",
          "/student/transcripts",
          {
            recipient: field("recipient"),
            institution_name: field("institution_name"),
            institution_email: field("institution_email"),
          },
          Created,
        );
        return { redirect: `${TRANSCRIPT_PATH}?requested=1` };
      }
      case "pay": {
        const answer = (await api.send(
          "POST",
          `/student/transcripts/${encodeURIComponent(field("request_id"))}/pay`,
          {},
          Passthrough,
        )) as SchoolFeeAnswer;
        if (answer.status === "success") return { notice: "Payment already made.", status: 200 };
        if (!/^https?:\/\//i.test(answer.authorization_url)) {
          return { problem: CHECKOUT_UNUSABLE, status: 502 };
        }
        return { checkout: answer.authorization_url };
      }
      case "cancel": {
        const id = field("request_id");
        if (form.get("confirm") !== "yes") return { confirmCancel: id };
        await api.send(
          "POST",
          `/student/transcripts/${encodeURIComponent(id)}/cancel`,
          {},
          Created,
        );
        return { redirect: `${TRANSCRIPT_PATH}?cancelled=1` };
      }
      case "check":
        return { ...(await checkPayment(api, field("reference"))), status: 200 };
      default:
        return { problem: "Choose what to do.", status: 400 };
    }
  } catch (error) {
    if (!(error instanceof ApiRefusal)) throw error;
    return { problem: error.message, fields: error.fields, status: error.status };
  }
}

/**
 * Asks the gateway about a transcript payment through the verify every payment uses: on the way
 * back from the checkout (`?reference=`) and from "I have paid".
 */
export async function checkPayment(
  api: ServerApi,
  reference: string,
): Promise<{ notice?: string; problem?: string }> {
  try {
    const answer = await api.get(
      `/paystack/verify/${encodeURIComponent(reference)}`,
      answerOf(PaymentRecord),
    );
    return /^success$/i.test(answer.data.payment_status)
      ? {
          notice: "Payment received. Your transcript now waits for the exams office to release it.",
        }
      : {
          problem:
            "This payment is not complete yet. If you have paid, check again in a few minutes.",
        };
  } catch (error) {
    if (!(error instanceof ApiRefusal)) throw error;
    return { problem: error.message };
  }
}
