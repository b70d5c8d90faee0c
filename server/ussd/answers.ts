import type { ApiDeps } from "../deps.ts";
import { ApiError } from "../http/errors.ts";
import { quoteFee } from "../payments/school-fee.ts";
import { startOfflinePayment, TRANSFER_ACCOUNT_LIFETIME_MS } from "../payments/offline-payment.ts";
import type { createPaymentLimits } from "../payments/payment-limits.ts";
import { internationalPhone } from "../sms/phone-numbers.ts";
import type { OfflineChannelChoice } from "../../common/payments/channels.ts";
import { say } from "./languages/index.ts";
import type { Place, Walked } from "./menu.ts";
import { setUssdLanguage, type UssdCaller } from "./pin.ts";
import {
  feeFacts,
  registrationFacts,
  resultFacts,
  ussdStudent,
  type FeeFacts,
  type PayableOption,
  type UssdStudent,
} from "./facts.ts";
import {
  done,
  feesScreen,
  languageScreen,
  mainMenu,
  notOnMenuLine,
  paySentScreen,
  payScreen,
  registrationScreen,
  resultsScreen,
  type UssdAnswer,
} from "./screens.ts";
import { payDetailsText } from "./sms-texts.ts";

type MenuDeps = ApiDeps & { paymentLimits: ReturnType<typeof createPaymentLimits> };

/** What one screen of the menu reads, each at most once and only if the screen needs it. */
export function menuContext(deps: MenuDeps, caller: UssdCaller) {
  let student: Promise<UssdStudent> | undefined;
  let fees: Promise<FeeFacts> | undefined;
  const context = {
    deps,
    caller,
    language: caller.language,
    student: () =>
      (student ??= ussdStudent(deps.db, caller.studentId).then((found) => {
        if (!found) throw new Error(`USSD caller ${caller.studentId} has no student row`);
        return found;
      })),
    fees: async () => (fees ??= feeFacts(deps.db, await context.student())),
    payChoices: async () => {
      const facts = await context.fees();
      return facts.kind === "fees" ? facts.payable.length : 0;
    },
  };
  return context;
}
type MenuContext = ReturnType<typeof menuContext>;

/** The screen the caller stands on, told first when their last choice was not on it. */
export async function screenText(context: MenuContext, place: Place, notOnMenu: boolean) {
  const above = notOnMenuLine(context.language, notOnMenu);
  return `${above}${await placeText(context, place, above)}`;
}

async function placeText(context: MenuContext, place: Place, above: string): Promise<string> {
  const { language, deps } = context;
  switch (place) {
    case "main":
      return mainMenu(language);
    case "fees":
      return feesScreen(language, await context.fees());
    case "pay":
      return payScreen(language, await context.fees());
    case "registration": {
      const facts = await registrationFacts(deps.db, await context.student());
      return registrationScreen(language, facts, above);
    }
    case "results":
      return resultsScreen(
        language,
        await resultFacts(deps.db, context.caller.studentId, deps.resultsRequireFees ?? true),
      );
    case "language":
      return languageScreen(language);
  }
}

/** A choice that ends the session: the only ones that change anything. */
export async function answerChoice(
  context: MenuContext,
  walked: Exclude<Walked, { kind: "screen" }>,
): Promise<UssdAnswer> {
  const { language, deps, caller } = context;
  switch (walked.kind) {
    case "exit":
      return done(say(language, "goodbye"));
    case "over":
      return done(say(language, "session_over"));
    case "language":
      await setUssdLanguage(deps.db, caller.studentId, walked.language);
      return done(say(walked.language, "language_set"));
    case "pay": {
      const facts = await context.fees();
      const option = facts.kind === "fees" ? facts.payable[walked.choice - 1] : undefined;
      if (!option) return done(say(language, "session_over"));
      return payBySms(context, option);
    }
  }
}

/**
 * Starts paying `option` as the Payment page's bank transfer (or, for a fee Paystack may not take,
 * a Remita RRR) and texts the student how to finish: money never moves inside USSD. The refusals
 * the Payment page would give (a late fee, too many starts) are shown as the portal words them.
 */
async function payBySms(context: MenuContext, option: PayableOption): Promise<UssdAnswer> {
  const { deps, language } = context;
  const student = await context.student();
  const session = student.placement.currentSession!;
  const choice = { option: option.option, level: student.level, session };
  try {
    await deps.paymentLimits.countPaymentStart(student.id, deps.now());
    const quote = await quoteFee(deps, student, choice);
    const channel: OfflineChannelChoice = quote.gateways.includes("paystack")
      ? {
          kind: "bank_transfer",
          expiresAt: new Date(deps.now().getTime() + TRANSFER_ACCOUNT_LIFETIME_MS),
        }
      : { kind: "remita" };
    const started = await startOfflinePayment(deps, student, choice, channel);
    if (started.status === "success") return done(say(language, "pay_nothing_to_pay", { session }));
    const { instructions, reference } = started;
    if (instructions.channel === "ussd") throw new Error("a USSD-code charge was not asked for");
    const payment = { amountKobo: quote.amountKobo, reference };
    await deps.db.transaction((tx) =>
      deps.jobs.sendSms(tx, {
        key: `pay-details:${reference}`,
        kind: "pay-details",
        studentId: student.id,
        to: internationalPhone(student.phone),
        text: payDetailsText(language, payment, instructions),
      }),
    );
    return done(paySentScreen(language, payment));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return done(error.status >= 500 ? say(language, "pay_not_started") : error.message);
  }
}
