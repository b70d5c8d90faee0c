import type { FormEvent, ReactNode } from "react";
import { USSD_BANKS } from "../../../common/payments/ussd-banks.ts";
import type { FormChoice } from "../../lib/payments/choice.ts";

type Props = {
  studentId: number;
  choice: FormChoice;
  /** The card button's text (spec: Proceed to payment, Initializing..., Initiating payment failed!). */
  cardLabel: ReactNode;
  cardDisabled: boolean;
  /** With JavaScript the card form becomes one JSON call; without, it posts to the page. */
  onCard?: (event: FormEvent<HTMLFormElement>) => void;
};

/**
 * The three ways to pay a quoted fee, each a plain form posting to /payment: card (Paystack's
 * checkout), bank transfer and USSD (charges made on the server, no card and no script needed).
 */
export function PayWays({ studentId, choice, cardLabel, cardDisabled, onCard }: Props) {
  const fields = (action: string) => (
    <>
      <input type="hidden" name="action" value={action} />
      <input type="hidden" name="student_id" value={studentId} />
      <input type="hidden" name="payment_option" value={choice.option} />
      <input type="hidden" name="payment_level" value={choice.level} />
      <input type="hidden" name="payment_session" value={choice.session} />
    </>
  );
  return (
    <div className="pay-ways">
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
    </div>
  );
}
