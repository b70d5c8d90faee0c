import type { PayInstructions } from "../../common/payments/offline-payment.ts";
import type { FeeKind } from "../../common/payments/fee-kinds.ts";
import type { GatewayTransaction, PaymentGateway } from "../payments/gateway.ts";
import {
  createRemitaClient,
  RemitaError,
  type PayOnlineForm,
  type RemitaClient,
} from "./client.ts";
import { readRemitaNotification } from "./notifications.ts";
import { transactionStatusOf } from "./responses.ts";
import { serviceTypeFor, type RemitaServiceTypes } from "./settings.ts";

/** Where Remita is, who we are to it, and what we invoice under (server/env.ts reads them). */
export type RemitaSettings = Omit<Parameters<typeof createRemitaClient>[0], "merchantId"> & {
  merchantId: string;
  serviceTypes: RemitaServiceTypes;
  /** Where students open the portal: Remita sends them back to `/remita/verify` on it. */
  publicOrigin: string;
};

/** The Remita gateway: the seam, plus the form that pays an RRR on Remita's own page. */
export type RemitaGateway = PaymentGateway & {
  readonly name: "remita";
  cancel: NonNullable<PaymentGateway["cancel"]>;
  /** The form that takes a student to Remita's page to pay an RRR online. */
  payOnlineForm(rrr: string): PayOnlineForm;
};

const KIND_WORDS: Record<FeeKind, string> = {
  school_fee: "School fee",
  transcript: "Transcript fee",
};

/** Remita as a payment gateway: RRRs, their status calls, and its unsigned notifications read. */
export function createRemitaGateway(settings: RemitaSettings): RemitaGateway {
  return remitaGateway(createRemitaClient(settings), settings);
}

/** The page Remita sends a student back to, with `RRR` and `orderID` in the query. */
export const remitaResponseUrl = (publicOrigin: string) =>
  new URL("/remita/verify", publicOrigin).toString();

const refuse = (what: string) =>
  Promise.reject(
    new RemitaError(`Remita has no ${what} for merchants`, {
      gatewayMessage: `Remita has no ${what} for merchants`,
    }),
  );

/** Fits a Remita client to the gateway seam. */
export function remitaGateway(
  client: RemitaClient,
  settings: Pick<RemitaSettings, "serviceTypes" | "publicOrigin">,
): RemitaGateway {
  const responseUrl = remitaResponseUrl(settings.publicOrigin);
  const payOnlineForm = (rrr: string) => client.payOnlineForm(rrr, responseUrl);

  return {
    name: "remita",
    label: "Remita",
    offers: { transactionList: false, refundApi: false },

    startCheckout: () =>
      Promise.reject(
        new RemitaError(
          "Remita is paid through an RRR: start the payment as an offline charge on the remita channel",
          { gatewayMessage: "Remita has no card checkout of its own here" },
        ),
      ),

    async startOfflineCharge(input): Promise<PayInstructions> {
      if (input.channel.kind !== "remita") {
        throw new RemitaError(`Remita cannot take a ${input.channel.kind} payment`, {
          gatewayMessage: "Remita is paid through an RRR",
        });
      }
      const kind = input.serviceKind ?? "school_fee";
      const serviceTypeId = serviceTypeFor(settings.serviceTypes, kind);
      if (!serviceTypeId) {
        throw new RemitaError(`REMITA_SERVICE_TYPE_ID names no service type for ${kind}`, {
          gatewayMessage: `No Remita service type for ${kind}`,
          configurationFault: true,
        });
      }
      if (!input.payer?.name.trim()) {
        // Remita prints the payer's name on the invoice the bank reads; it is never guessed.
        throw new RemitaError("An RRR needs the payer's name", {
          gatewayMessage: "No payer name",
        });
      }
      const session = input.metadata.payment_session;
      const { rrr } = await client.generateRrr({
        serviceTypeId,
        orderId: input.reference,
        amountKobo: input.amountKobo,
        payerName: input.payer.name.trim(),
        payerEmail: input.email,
        payerPhone: input.payer.phone,
        description: `${KIND_WORDS[kind]}${typeof session === "string" ? ` ${session}` : ""}, ${input.reference}`,
        lineItems: input.lineItems,
        customFields: input.payer.matricNo
          ? [{ name: "Matric Number", value: input.payer.matricNo }]
          : undefined,
      });
      return { channel: "remita", rrr, pay_online: payOnlineForm(rrr) };
    },

    async verify({ reference, gatewayReference }): Promise<GatewayTransaction | null> {
      const status = gatewayReference
        ? await client.statusByRrr(gatewayReference)
        : await client.statusByOrderId(reference);
      if (status.meaning === "not-found") return null;
      // Our RRRs are made for our references: one made for another order is not this payment.
      if (status.orderId !== null && status.orderId !== reference) {
        throw new RemitaError(
          `Remita's RRR ${gatewayReference} belongs to order ${status.orderId}, not ${reference}`,
        );
      }
      const paid = status.meaning === "paid";
      return {
        reference,
        status: transactionStatusOf(status.meaning),
        amountKobo: status.amountKobo!,
        currency: "NGN",
        paidAt: paid ? status.paidAt : null,
        // The status call does not say card or branch; the row keeps the channel it was paid on.
        channel: "remita",
        gatewayResponse: status.message ? `${status.message} (${status.code})` : status.code,
        gatewayReference: status.rrr ?? gatewayReference,
      };
    },

    listTransactions: () => refuse("transaction list"),
    listRefunds: () => refuse("refund list"),
    refund: () => refuse("refund call"),
    readNotification: (rawBody) => readRemitaNotification(rawBody),

    async cancel(payment) {
      // A row without its RRR (the answer to paymentinit was lost) is found by our order id; an
      // order Remita never made an RRR for has nothing left to pay.
      const rrr = payment.gatewayReference ?? (await client.statusByOrderId(payment.reference)).rrr;
      return rrr ? client.cancel(rrr) : "cancelled";
    },
    payOnlineForm,
  };
}
