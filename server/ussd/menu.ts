/**
 * The USSD menu after the PIN, as a walk over the choices the network passes (`text`, split on
 * `*`). The walk is replayed on every screen, so a screen is a function of the choices alone; the
 * two choices that change something (paying sends an SMS, a language is kept) end the session, so
 * a session the network drops mid-menu has changed nothing (decision 202).
 */
import { USSD_LANGUAGES, type UssdLanguage } from "../../common/ussd/ussd-pin.ts";

/** Screens the caller can stand on. */
export type Place = "main" | "fees" | "pay" | "registration" | "results" | "language";

export type Walked =
  | { kind: "screen"; place: Place; notOnMenu: boolean }
  | { kind: "pay"; choice: number }
  | { kind: "language"; language: UssdLanguage }
  | { kind: "exit" }
  /** A choice after one that ended the session: the network would not have sent it. */
  | { kind: "over" };

const MAIN_CHOICES: Record<string, Place | "exit"> = {
  "1": "fees",
  "2": "pay",
  "3": "registration",
  "4": "results",
  "5": "language",
  "0": "exit",
};

/**
 * Where `choices` lead from the main menu. `payChoices` is how many fees the pay screen offers
 * (read only if the walk passes through it).
 */
export async function walkMenu(
  choices: readonly string[],
  payChoices: () => Promise<number>,
): Promise<Walked> {
  let place: Place = "main";
  let notOnMenu = false;
  for (const [index, choice] of choices.entries()) {
    const last = index === choices.length - 1;
    const ending = await endingChoice(place, choice, payChoices);
    if (ending) return last ? ending : { kind: "over" };
    const next = nextPlace(place, choice);
    notOnMenu = next === null;
    place = next ?? place;
  }
  return { kind: "screen", place, notOnMenu };
}

/** The choice that ends the session from `place`, if `choice` is one. */
async function endingChoice(
  place: Place,
  choice: string,
  payChoices: () => Promise<number>,
): Promise<Walked | null> {
  if (place === "main" && choice === "0") return { kind: "exit" };
  const number = /^[1-9]$/.test(choice) ? Number(choice) : 0;
  if (place === "language" && number >= 1 && number <= USSD_LANGUAGES.length)
    return { kind: "language", language: USSD_LANGUAGES[number - 1]! };
  if (place === "pay" && number >= 1 && number <= (await payChoices()))
    return { kind: "pay", choice: number };
  return null;
}

/** Where a choice that ends nothing leads: null when it is not on the screen. */
function nextPlace(place: Place, choice: string): Place | null {
  if (place === "main") {
    const next = MAIN_CHOICES[choice];
    return next && next !== "exit" ? next : null;
  }
  return choice === "0" ? "main" : null;
}
