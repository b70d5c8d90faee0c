import {
  useEffect,
  useRef,
  useState,
  type ChangeEvent,
  type FormEvent,
  type ReactNode,
} from "react";
import { toast } from "sonner";
import { PortalToaster } from "./PortalToaster.tsx";
import { PayWays } from "./pay/PayWays.tsx";
import { ApiFailure, apiRequest } from "../lib/api/browser-api.client.ts";
import { formatNaira } from "../../common/format/money.ts";
import { PAYMENT_OPTIONS } from "../../common/payments/fee-status.ts";
import { PAYMENT_LEVELS } from "../../common/payments/fees.ts";
import type { QuoteAnswer, SchoolFeeAnswer } from "../../common/payments/fee-request.ts";
import { isComplete, type FormChoice, type Quote } from "../lib/payments/choice.ts";
import { TOAST_DURATION_MS } from "../lib/ui/toast-duration.ts";

type Props = {
  studentId: number;
  /** Session names, newest first. */
  sessions: readonly string[];
  /** What the server rendered: the choice in the address and its quote. */
  initialChoice: FormChoice;
  initialQuote: Quote;
};

type PayButton = "idle" | "initializing" | "failed";

const BUTTON_TEXT: Record<PayButton, string> = {
  idle: "Proceed to payment",
  initializing: "Initializing...",
  failed: "Initiating payment failed!",
};

/**
 * Payment page: category, level and session, the quote, then the ways to pay. The server renders
 * it as a GET form (the quote comes with the next page); once hydrated the quote follows each
 * change at once and the card button starts Paystack with one call and toasts.
 */
export function PaymentSelector({ studentId, sessions, initialChoice, initialQuote }: Props) {
  const [choice, setChoice] = useState<FormChoice>(initialChoice);
  const [quote, setQuote] = useState<Quote>(initialQuote);
  const [button, setButton] = useState<PayButton>("idle");
  const [hydrated, setHydrated] = useState(false);
  // The gateways of the last quote: while the next one loads, the same ways stay in place.
  const [gateways, setGateways] = useState<readonly string[] | null>(
    initialQuote.state === "ready" ? initialQuote.gateways : null,
  );
  // Answers to an earlier choice arrive late on slow connections; only the latest counts.
  const latest = useRef(0);
  // Each refusal is a toast of its own: one that reused the id of a toast still leaving after
  // toast.dismiss() was taken away with it.
  const refusalToast = useRef<string | number | null>(null);
  // The server already quoted the choice it rendered: no second call when hydrating.
  const rendered = useRef(initialChoice);
  const quoteBox = useRef<HTMLDivElement>(null);
  const complete = isComplete(choice);

  useEffect(() => setHydrated(true), []);

  useEffect(() => {
    if (choice === rendered.current) return;
    setButton("idle");
    if (!complete) {
      setQuote({ state: "none" });
      return;
    }
    const request = ++latest.current;
    if (refusalToast.current !== null) toast.dismiss(refusalToast.current);
    refusalToast.current = null;
    setQuote({ state: "loading" });
    apiRequest<QuoteAnswer>("/student/generate-payment", {
      method: "POST",
      json: {
        payment_name: "schoolfees",
        payment_option: choice.option,
        payment_level: Number(choice.level),
        payment_session: choice.session,
      },
    })
      .then((answer) => {
        if (request !== latest.current) return;
        setQuote({ state: "ready", amount: answer.data.amount, gateways: answer.data.gateways });
        setGateways(answer.data.gateways);
        // On a phone the three choices fill the screen: the amount they lead to, and the way on to
        // pay, would otherwise arrive below it unseen.
        requestAnimationFrame(() => quoteBox.current?.scrollIntoView({ block: "nearest" }));
      })
      .catch((error: unknown) => {
        if (request !== latest.current) return;
        const reason = error instanceof ApiFailure ? error.message : "We could not get the amount.";
        // The choices stay (the spec clears them): the reason names them, and the student changes
        // one to go on. The toast stays until closed; the reason also stays beside the choices.
        refusalToast.current = toast.error(reason, { duration: TOAST_DURATION_MS.error });
        setQuote({ state: "refused", reason });
      });
  }, [choice, complete]);

  async function payByCard(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setButton("initializing");
    try {
      const answer = await apiRequest<SchoolFeeAnswer>("/student/school-fee", {
        method: "POST",
        json: {
          student_id: studentId,
          payment_option: choice.option,
          payment_level: Number(choice.level),
          payment_session: choice.session,
        },
      });
      if (answer.status === "success") {
        toast.info("Payment already made", { duration: TOAST_DURATION_MS.info });
        setButton("idle");
        return;
      }
      toast.success("Initiating payment");
      window.location.assign(answer.authorization_url);
    } catch (error) {
      setButton("failed");
      const description = error instanceof ApiFailure ? error.message : undefined;
      toast.error("Initiating payment failed!", {
        id: "pay",
        description,
        duration: TOAST_DURATION_MS.error,
      });
    }
  }

  const pick = (field: keyof FormChoice) => (event: ChangeEvent<HTMLSelectElement>) =>
    setChoice((current) => ({ ...current, [field]: event.target.value }));

  return (
    <section className="card" aria-labelledby="pay-title">
      <PortalToaster />
      <h2 id="pay-title">Pay school fees</h2>
      {/* Without scripts the next page opens at this card, where its amount is, not at the top. */}
      <form method="get" action="/payment#pay-title">
        <div className="grid">
          <Select
            id="payment-option"
            name="payment_option"
            label="Payment category"
            value={choice.option}
            onChange={pick("option")}
          >
            {PAYMENT_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
          <Select
            id="payment-level"
            name="payment_level"
            label="Level"
            value={choice.level}
            onChange={pick("level")}
          >
            {PAYMENT_LEVELS.map((level) => (
              <option key={level} value={level}>
                {level}
              </option>
            ))}
          </Select>
          <Select
            id="payment-session"
            name="payment_session"
            label="Session"
            value={choice.session}
            onChange={pick("session")}
          >
            {sessions.map((session) => (
              <option key={session} value={session}>
                {session}
              </option>
            ))}
          </Select>
        </div>
        {/* Without scripts the quote comes with the next page; with them it follows each choice. */}
        {!hydrated && (
          <button type="submit" className="button-secondary">
            Show the amount
          </button>
        )}
      </form>
      <div className="pay-quote" aria-live="polite" ref={quoteBox}>
        {quote.state === "loading" && <p>Getting the amount…</p>}
        {quote.state === "refused" && (
          <p className="alert alert-error" role="alert">
            {quote.reason}
          </p>
        )}
        {quote.state === "ready" && (
          <p>
            Amount to pay:{" "}
            <strong className="pay-amount" data-testid="fee-amount">
              {formatNaira(quote.amount)}
            </strong>
          </p>
        )}
      </div>
      {complete && gateways && (quote.state === "loading" || quote.state === "ready") && (
        <PayWays
          studentId={studentId}
          choice={choice}
          gateways={gateways}
          onCard={hydrated ? payByCard : undefined}
          cardDisabled={quote.state !== "ready" || button === "initializing"}
          cardLabel={
            <>
              {button === "initializing" && <span className="spinner" aria-hidden="true" />}
              {BUTTON_TEXT[button]}
            </>
          }
        />
      )}
    </section>
  );
}

type SelectProps = {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLSelectElement>) => void;
  children: ReactNode;
};

function Select({ id, name, label, value, onChange, children }: SelectProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} value={value} onChange={onChange}>
        <option value="">--Select--</option>
        {children}
      </select>
    </div>
  );
}
