import type { FormEvent, ReactNode } from "react";
import { USSD_BANKS } from "../../../common/payments/ussd-banks.ts";
import {
  channelsThrough,
  unhandledChannel,
  type PaymentChannel,
} from "../../../common/payments/channels.ts";
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
 * needed); through Remita, an RRR to pay on Remita's page or at any bank branch. Only the ways of
 * the gateways the fee may be paid through are shown; the first is the main one.
 */
export function PayWays({ studentId, choice, gateways, cardLabel, cardDisabled, onCard }: Props) {
  return (
    <div className="pay-ways">
      {channelsThrough(gateways).map((channel, index) => (
        <form
          key={channel}
          method="post"
          action="/payment"
          onSubmit={channel === "card" ? onCard : undefined}
          className="pay-way"
        >
          <input type="hidden" name="action" value={channel} />
          <input type="hidden" name="student_id" value={studentId} />
          <input type="hidden" name="payment_option" value={choice.option} />
          <input type="hidden" name="payment_level" value={choice.level} />
          <input type="hidden" name="payment_session" value={choice.session} />
          <Way
            channel={channel}
            buttonClass={index === 0 ? undefined : "button-secondary"}
            {...{ cardLabel, cardDisabled }}
          />
        </form>
      ))}
    </div>
  );
}

function Way({
  channel,
  buttonClass,
  cardLabel,
  cardDisabled,
}: Pick<Props, "cardLabel" | "cardDisabled"> & {
  channel: PaymentChannel;
  buttonClass: string | undefined;
}) {
  switch (channel) {
    case "card":
      return (
        <>
          <h3>Card</h3>
          <p>On Paystack's secure page.</p>
          <button type="submit" className={buttonClass} disabled={cardDisabled}>
            {cardLabel}
          </button>
        </>
      );
    case "bank_transfer":
      return (
        <>
          <h3>Bank transfer</h3>
          <p>From any bank app or branch, to an account we give you.</p>
          <button type="submit" className={buttonClass}>
            Pay by bank transfer
          </button>
        </>
      );
    case "ussd":
      return (
        <>
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
          <button type="submit" className={buttonClass}>
            Pay by USSD
          </button>
        </>
      );
    case "remita":
      return (
        <>
          <h3>Remita</h3>
          <p>Get an RRR, then pay it online on Remita's page or at any bank branch.</p>
          <button type="submit" className={buttonClass}>
            Pay with Remita
          </button>
        </>
      );
    default:
      return unhandledChannel(channel);
  }
}
