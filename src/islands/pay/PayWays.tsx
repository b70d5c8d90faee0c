import type { FormEvent, ReactNode } from "react";
import { USSD_BANKS } from "../../../common/payments/ussd-banks.ts";
import type { FormChoice } from "../../lib/payments/choice.ts";

type Props = {
  studentId: number;
  choice: FormChoice;
  /** The gateways this fee may be paid through: only their ways are offered. */
  gateways: readonly string[];
  /** The card button's text (spec: Proceed to payment, Initializing..., Initiating payment failed!). */
  cardLabel: ReactNode;
  cardDisabled: boolean;
  /** With JavaScript the card form becomes one JSON call; without, it posts to the page. */
  onCard?: (event: FormEvent<HTMLFormElement>) => void;
};

/**
 * The ways to pay a quoted fee, each a plain form posting to /payment: through Paystack, card
 * (its checkout), bank transfer and USSD (charges made on the server, no card and no script
 * needed); through Remita, an RRR to pay on Remita's page or at any bank branch. A fee the bursar
 * allows only one gateway shows only that gateway's ways.
 */
export function PayWays({ studentId, choice, gateways, cardLabel, cardDisabled, onCard }: Props) {
  const fields = (action: string) => (
    <>
      <input type="hidden" name="action" value={action} />
      <input type="hidden" name="student_id" value={studentId} />
      <input type="hidden" name="payment_option" value={choice.option} />
      <input type="hidden" name="payment_level" value={choice.level} />
      <input type="hidden" name="payment_session" value={choice.session} />
    </>
  );
  const paystack = gateways.includes("paystack");
  return (
    <div className="pay-ways">
      {paystack && <PaystackWays fields={fields} {...{ cardLabel, cardDisabled, onCard }} />}
      {gateways.includes("remita") && (
        <form method="post" action="/payment" className="pay-way">
          {fields("remita")}
          <h3>Remita</h3>
          <p>Get an RRR, then pay it online on Remita's page or at any bank branch.</p>
          <button type="submit" className={paystack ? "button-secondary" : undefined}>
            Pay with Remita
          </button>
        </form>
      )}
    </div>
  );
}

function PaystackWays({
  fields,
  cardLabel,
  cardDisabled,
  onCard,
}: Pick<Props, "cardLabel" | "cardDisabled" | "onCard"> & {
  fields: (action: string) => ReactNode;
}) {
  return (
    <>
      <form method="post" action="/payment" onSubmit={onCard} className="pay-way">
        {fields("card")}
        <h3>Card</h3>
        <p>On Paystack's secure page.</p>
        <button type="submit" disabled={cardDisabled}>
          {cardLabel}
        </button>
      </form>
      <form method="post" action="/payment" className="pay-way">
        {fields("bank_transfer")}
        <h3>Bank transfer</h3>
        <p>From any bank app or branch, to an account we give you.</p>
        <button type="submit" className="button-secondary">
          Pay by bank transfer
        </button>
      </form>
      <form method="post" action="/payment" className="pay-way">
        {fields("ussd")}
        <h3>USSD</h3>
        <label htmlFor="ussd-bank">Your bank</label>
        <select id="ussd-bank" name="ussd_bank" required defaultValue="">
          <option value="">--Select--</option>
          {USSD_BANKS.map((bank) => (
            <option key={bank.code} value={bank.code}>
              {bank.name} (*{bank.code}#)
            </option>
          ))}
        </select>
        <button type="submit" className="button-secondary">
          Pay by USSD
        </button>
      </form>
    </>
  );
}
