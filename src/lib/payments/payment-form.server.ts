import { z } from "zod";
import { ApiRefusal, type ServerApi } from "../api/server-api.server.ts";
import { answerOf } from "../api/answer.ts";
import { PaymentRecord } from "../../../common/payments/payment-record.ts";
import type { SchoolFeeAnswer } from "../../../common/payments/fee-request.ts";
import { PAYMENT_CHANNELS } from "../../../common/payments/channels.ts";
import type { OfflinePaymentAnswer } from "../../../common/payments/offline-payment.ts";
import { choiceFrom, type FormChoice } from "./choice.ts";

// The Payment page's forms, posted without JavaScript (or before the page's script has loaded):
// each button names its `action`. The page server passes the fields on to the API unchanged (the
// API decides amounts, ownership and limits), then answers with a 303 on success, a page that
// goes on to Paystack's checkout, or the refusal's message on the page.

export const PAYMENT_PATH = "/payment";

/**
 * What the page does after a post: go somewhere on this site (303), go on to Paystack's checkout,
 * or show a message with a status. The checkout is not a 303: the policy's `form-action 'self'`
 * also covers where a form's answer redirects, and the browser would silently stop there, with a
 * pending payment opened for every press (src/components/payments/ToCheckout.astro).
 */
export type PostOutcome =
  | { redirect: string }
  | { checkout: string }
  /** "Cancel this RRR" was pressed: the page asks first, naming the RRR. */
  | { confirmCancel: string }
  | {
      message: string;
      tone: "error" | "info";
      status: number;
      choice: FormChoice;
      reference: string | null;
    };

// Every way to pay, "check" (the "I have paid" button) and "cancel" (an unpaid RRR).
const PaymentAction = z.enum([...PAYMENT_CHANNELS, "check", "cancel"]);
const Passthrough = z.object({ status: z.string() }).passthrough();

const CHECKOUT_UNUSABLE =
  "We could not start the payment with Paystack. Please try again in a few minutes.";

/** Where a payment's pay instructions and status are shown. */
export const offlinePaymentUrl = (reference: string) =>
  `${PAYMENT_PATH}?${new URLSearchParams({ reference })}`;

export async function handlePaymentPost(api: ServerApi, form: FormData): Promise<PostOutcome> {
  const choice = choiceFrom(form);
  const reference = String(form.get("reference") ?? "").trim() || null;
  const shown = (
    message: string,
    status: number,
    tone: "error" | "info" = "error",
  ): PostOutcome => ({
    message,
    tone,
    status,
    choice,
    reference,
  });
  const action = PaymentAction.safeParse(form.get("action"));
  if (!action.success) return shown("Choose a way to pay.", 400);
  // The API reads the student id and the three choices; an amount in the form is never sent on.
  const request = {
    student_id: String(form.get("student_id") ?? ""),
    payment_option: choice.option,
    payment_level: choice.level,
    payment_session: choice.session,
  };
  try {
    switch (action.data) {
      case "card": {
        const answer = (await api.send(
          "POST",
          "/student/school-fee",
          request,
          Passthrough,
        )) as SchoolFeeAnswer;
        if (answer.status === "success") return shown("Payment already made", 200, "info");
        // Only a web address goes into the page's refresh and link.
        if (!/^https?:\/\//i.test(answer.authorization_url)) return shown(CHECKOUT_UNUSABLE, 502);
        return { checkout: answer.authorization_url };
      }
      case "bank_transfer":
      case "ussd":
      case "remita": {
        const offline = {
          ...request,
          channel: action.data,
          ussd_bank: form.get("ussd_bank") || undefined,
        };
        const answer = (await api.send(
          "POST",
          "/student/school-fee/offline",
          offline,
          Passthrough,
        )) as OfflinePaymentAnswer;
        if (answer.status === "success") return shown("Payment already made", 200, "info");
        return { redirect: offlinePaymentUrl(answer.reference) };
      }
      case "check": {
        if (!reference) return shown("No Payment Reference Found", 400);
        await api.get(`/paystack/verify/${encodeURIComponent(reference)}`, answerOf(PaymentRecord));
        return { redirect: offlinePaymentUrl(reference) };
      }
      case "cancel": {
        if (!reference) return shown("No Payment Reference Found", 400);
        if (form.get("confirm") !== "yes") return { confirmCancel: reference };
        // The card then shows the payment as it now stands: cancelled, or credited when Remita
        // had the money already.
        await api.send(
          "POST",
          `/student/school-fee/${encodeURIComponent(reference)}/cancel`,
          {},
          Passthrough,
        );
        return { redirect: offlinePaymentUrl(reference) };
      }
    }
  } catch (error) {
    if (!(error instanceof ApiRefusal)) throw error;
    return shown(error.message, error.status);
  }
}
