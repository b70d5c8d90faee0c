/**
 * The USSD screens' text, in the caller's language. Africa's Talking shows at most 182 characters
 * of an answer, "CON " or "END " included; every screen is fitted to that (every path is walked in
 * every language by ussd.api.test.ts), and the one free text it shows, an adviser's note, is cut.
 */
import { formatAmount } from "../../common/format/money.ts";
import type { UssdLanguage } from "../../common/ussd/ussd-pin.ts";
import { isGsm7 } from "../sms/gsm7.ts";
import { say } from "./languages/index.ts";
import type { FeeFacts, registrationFacts, resultFacts } from "./facts.ts";

export const SCREEN_LIMIT = 182;

export type UssdAnswer = `CON ${string}` | `END ${string}`;

export const more = (text: string): UssdAnswer => `CON ${fitted(text)}`;
export const done = (text: string): UssdAnswer => `END ${fitted(text)}`;

/** The last resort for a text longer than a screen: cut, and say so with an ellipsis. */
function fitted(text: string) {
  const room = SCREEN_LIMIT - 4;
  return text.length <= room ? text : `${text.slice(0, room - 3).trimEnd()}...`;
}

const naira = (kobo: number) => `NGN ${formatAmount(kobo / 100)}`;

/** An informational screen: its lines, then the way back to the menu. */
const withBack = (language: UssdLanguage, text: string) => `${text}\n${say(language, "back")}`;

export const mainMenu = (language: UssdLanguage) => say(language, "main_menu");

/** What goes above a screen the caller stays on after a choice it does not offer. */
export const notOnMenuLine = (language: UssdLanguage, notOnMenu: boolean) =>
  notOnMenu ? `${say(language, "not_on_menu")}\n` : "";

const PAYMENT_STATE = { success: "payment_paid", pending: "payment_waiting" } as const;

export function feesScreen(language: UssdLanguage, facts: FeeFacts) {
  if (facts.kind === "no-session") return withBack(language, say(language, "no_session"));
  if (facts.kind === "no-fee")
    return withBack(language, say(language, "fees_no_fee", { session: facts.session }));
  const lines = [
    say(language, "fees_status", {
      session: facts.session,
      level: facts.level,
      paid: naira(facts.paidKobo),
      owed: naira(facts.owedKobo),
    }),
  ];
  if (facts.latest) {
    const state =
      PAYMENT_STATE[facts.latest.status as keyof typeof PAYMENT_STATE] ?? "payment_not_paid";
    lines.push(
      say(language, "latest_payment", {
        amount: naira(facts.latest.amountKobo),
        state: say(language, state),
      }),
    );
  }
  return withBack(language, lines.join("\n"));
}

export function payScreen(language: UssdLanguage, facts: FeeFacts) {
  if (facts.kind !== "fees") return feesScreen(language, facts);
  if (!facts.payable.length)
    return withBack(language, say(language, "pay_nothing_to_pay", { session: facts.session }));
  const lines = facts.payable.map(
    (each, index) =>
      `${index + 1} ${say(language, `option_${each.option}` as "option_full")}: ${naira(each.amountKobo)}`,
  );
  return withBack(
    language,
    [say(language, "pay_choose", { session: facts.session }), ...lines].join("\n"),
  );
}

export function paySentScreen(
  language: UssdLanguage,
  payment: { amountKobo: number; reference: string },
) {
  return say(language, "pay_sent", {
    amount: naira(payment.amountKobo),
    reference: payment.reference,
  });
}

/** `above`: what the screen shows before this (a "not on the menu" line), which the notes make room for. */
export function registrationScreen(
  language: UssdLanguage,
  facts: Awaited<ReturnType<typeof registrationFacts>>,
  above = "",
) {
  if (!facts) return withBack(language, say(language, "no_session"));
  if (!facts.semesters.length)
    return withBack(language, say(language, "registration_none", { session: facts.session }));
  const line = (semester: (typeof facts.semesters)[number], note: string) =>
    say(language, "registration_semester", {
      semester: say(language, semester.semester === 2 ? "second_semester" : "first_semester"),
      units: semester.units,
      state:
        semester.status === "returned"
          ? say(language, "registration_returned", { note })
          : say(
              language,
              semester.status === "approved" ? "registration_approved" : "registration_waiting",
            ),
    });
  const header = facts.session;
  const withoutNotes = withBack(
    language,
    [header, ...facts.semesters.map((semester) => line(semester, ""))].join("\n"),
  );
  // What is left of the screen goes to the notes, shared between the semesters sent back.
  const returned = facts.semesters.filter((semester) => semester.status === "returned");
  const room = Math.floor(
    (SCREEN_LIMIT - 4 - above.length - withoutNotes.length) / Math.max(returned.length, 1),
  );
  return withBack(
    language,
    [
      header,
      ...facts.semesters.map((semester) => line(semester, cutNote(semester.note, room))),
    ].join("\n"),
  );
}

/** An adviser's note as a screen can show it: one line, GSM-7 only, cut to `room` characters. */
export function cutNote(note: string | null, room: number) {
  const plain = [...(note ?? "").replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/[–—]/g, "-")]
    .map((character) => (isGsm7(character) && character !== "\n" ? character : " "))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
  if (plain.length <= room) return plain;
  return room <= 3 ? "" : `${plain.slice(0, room - 3).trimEnd()}...`;
}

export function resultsScreen(
  language: UssdLanguage,
  facts: Awaited<ReturnType<typeof resultFacts>>,
) {
  if (facts.kind === "none") return withBack(language, say(language, "results_none"));
  if (facts.kind === "withheld") return withBack(language, say(language, "results_withheld"));
  return withBack(
    language,
    say(language, "results_latest", {
      session: facts.session,
      semester: say(language, facts.semester === 2 ? "second_semester" : "first_semester"),
      gpa: facts.gpa.toFixed(2),
      cgpa: facts.cgpa.toFixed(2),
    }),
  );
}

export const languageScreen = (language: UssdLanguage) =>
  withBack(language, say(language, "language_menu"));
