// The Payment page's choice and quote, shared by the page server and the island (no imports, so
// the island's bundle stays small).

/** The three choices as the page's GET form and its hidden fields carry them. */
export type FormChoice = { option: string; level: string; session: string };

/** The quote as the Payment page shows it, on the server and in the island alike. */
export type Quote =
  | { state: "none" }
  | { state: "loading" }
  /** `gateways`: the gateways the fee may be paid through; the page offers only their ways. */
  | { state: "ready"; amount: number; gateways: readonly string[] }
  | { state: "refused"; reason: string };

/** The choice in a query string or a posted form; blanks stay blank. */
export function choiceFrom(fields: { get(name: string): unknown }): FormChoice {
  const read = (name: string) => String(fields.get(name) ?? "").trim();
  return {
    option: read("payment_option"),
    level: read("payment_level"),
    session: read("payment_session"),
  };
}

export const isComplete = (choice: FormChoice) =>
  Boolean(choice.option && choice.level && choice.session);
