import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { request } from "undici";
import { REMITA_DEMO } from "../../server/remita/settings.ts";
import { StepFailed } from "./browser.ts";
import {
  playVisit,
  registerPrintAndSignOut,
  signInToDashboard,
  quoteOnPaymentPage,
  readReceiptAndHistory,
  THINK_SECONDS,
  type JourneyOptions,
  type JourneyOutcome,
  type StudentAccount,
  type Visit,
} from "./journey.ts";

/**
 * How a Remita student pays the RRR: online on Remita's page, or at a bank and leaving, or at a
 * bank and pressing "I have paid — check now" the moment the payment arrives (racing Remita's
 * notification).
 */
export type RemitaWay = "online" | "bank" | "bank-check";

/** The nth Remita student's way: half online, the other half at a bank, every other one checking. */
export function remitaWayFor(turn: number): RemitaWay {
  if (turn % 2 === 0) return "online";
  return turn % 4 === 1 ? "bank-check" : "bank";
}

/** What the run is told as students get and pay RRRs (the notification storm under --faults). */
export type RemitaEvents = {
  /** An RRR the Payment page gave a student. */
  issued(rrr: string, remitaOrigin: string): void;
  /** An RRR paid, arriving at Remita at `arrivesAt` (ms since the epoch; now for a card). */
  paid(rrr: string, arrivesAt: number): void;
};

/** The seconds, at think factor 1, before a payment made at a bank's counter reaches Remita. */
const BANK_ARRIVAL_SECONDS = 20;
/** Seconds a person reads the RRR page, and waits before pressing a refused button again. */
const READ_RRR_SECONDS = 5;
const TRY_AGAIN_SECONDS = 5;
/**
 * Presses of one button under faults before the student gives up (the last one's failure counts).
 * With a third of Remita's calls failing and an RRR's creation not retried by the portal (a retry
 * after a time-out would be refused as a duplicate order), four presses left one student in a
 * hundred stuck; ten leave about one in 60,000.
 */
const TRIES = 10;

/** The form the RRR page posts to Remita's page: its action and hidden fields. */
export type PayOnlineForm = { action: string; fields: Record<string, string> };

const decodeEntities = (text: string) =>
  text
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

/** The attributes of one HTML tag, names lower-cased, values decoded. */
function attributesOf(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/g)) {
    attributes[match[1]!.toLowerCase()] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? "");
  }
  return attributes;
}

/**
 * The "Pay online on Remita" form on the RRR page, as a browser would submit it: the form whose
 * action is Remita's finalize.reg, with its hidden fields. Null when the page has none.
 */
export function readPayOnlineForm(html: string): PayOnlineForm | null {
  for (const form of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const { action } = attributesOf(form[1]!);
    if (!action?.endsWith("/finalize.reg")) continue;
    const fields: Record<string, string> = {};
    for (const input of form[2]!.matchAll(/<input\b[^>]*>/gi)) {
      const { name, value } = attributesOf(input[0]);
      if (name) fields[name] = value ?? "";
    }
    return { action, fields };
  }
  return null;
}

/**
 * One Remita student's registration week: sign in, quote, "Pay with Remita" (the Payment page's
 * form), the RRR page, then the RRR paid online (back through /remita/verify) or at a bank, then
 * courses registered and the slip printed as everyone does. A bank payer does not wait for the
 * money to arrive before registering: the portal does not make registration wait for the fee.
 */
export function playRemitaStudent(
  account: StudentAccount,
  options: JourneyOptions & { way: RemitaWay; events?: RemitaEvents },
): Promise<JourneyOutcome> {
  return playVisit(account, options, async (visit) => {
    await signInToDashboard(visit.browser, account, visit.at, () =>
      visit.think(THINK_SECONDS.typeCredentials),
    );
    await visit.think(THINK_SECONDS.readDashboard);
    await payThroughRemita(visit, account, options);
    await registerPrintAndSignOut(visit, account);
  });
}

/**
 * A button pressed again after a refusal, as a person does when a gateway is down: only under
 * faults, at most TRIES times; refusals before the last are counted as tried again, not errors.
 */
async function pressUntilItWorks<T>(
  visit: Visit,
  faults: boolean | undefined,
  press: (retryable: boolean) => Promise<T>,
): Promise<T> {
  if (!faults) return press(false);
  for (let tried = 1; ; tried++) {
    try {
      return await press(tried < TRIES);
    } catch (error) {
      if (!(error instanceof StepFailed) || tried >= TRIES) throw error;
      await visit.think(TRY_AGAIN_SECONDS);
    }
  }
}

async function payThroughRemita(
  visit: Visit,
  account: StudentAccount,
  options: JourneyOptions & { way: RemitaWay; events?: RemitaEvents },
) {
  const { browser, outcome, think, at } = visit;
  const choice = await quoteOnPaymentPage(visit, account, "remita");

  // "Pay with Remita" is a plain form posting to the Payment page, which answers with the RRR page.
  const started = await pressUntilItWorks(visit, options.faults, (retryable) =>
    browser.navigate(
      "Pay with Remita",
      at("/payment"),
      { status: 303, location: "/payment?reference=", retryable },
      {
        method: "POST",
        body: new URLSearchParams({
          action: "remita",
          student_id: String(account.id),
          payment_option: choice.payment_option,
          payment_level: String(choice.payment_level),
          payment_session: choice.payment_session,
        }),
      },
    ),
  );
  const rrrPage = at(started.location!);
  const reference = rrrPage.searchParams.get("reference") ?? "";
  const page = await browser.navigate("RRR page", rrrPage, {
    status: 200,
    marker: 'data-testid="rrr"',
    check: (body) => (readPayOnlineForm(body) ? null : "no Pay online on Remita form"),
  });
  const form = readPayOnlineForm(page.body)!;
  const rrr = form.fields.rrr ?? "";
  const remitaOrigin = new URL(form.action).origin;
  outcome.rrr = rrr;
  outcome.remitaOrigin = remitaOrigin;
  options.events?.issued(rrr, remitaOrigin);
  await think(READ_RRR_SECONDS);

  if (options.way === "online") {
    await browser.navigate(
      "Remita's page",
      form.action,
      { status: 200, marker: "Pay an RRR" },
      { method: "POST", body: new URLSearchParams(form.fields) },
    );
    await think(THINK_SECONDS.enterCard);
    // Relative to finalize.reg, as the page's own button posts it.
    const paid = await browser.navigate(
      "pay on Remita's page",
      `finalize/${rrr}/pay`,
      { status: 303, location: `${options.origin}/remita/verify?` },
      { method: "POST" },
    );
    outcome.paidReference = reference;
    options.events?.paid(rrr, Date.now());
    await browser.navigate("Remita return page", paid.location!, {
      status: 200,
      marker: "Verifying payment...",
    });
    const check = `/remita/verify?${new URLSearchParams({ RRR: rrr, orderID: reference, check: "1" })}`;
    await pressUntilItWorks(visit, options.faults, (retryable) =>
      browser.navigate("Remita verify check", at(check), {
        status: 303,
        location: "/successful",
        retryable,
      }),
    );
    await readReceiptAndHistory(visit, reference);
    return;
  }

  // At a bank: the counter pays the RRR; the money reaches Remita a little later.
  const delayMs = Math.round(
    BANK_ARRIVAL_SECONDS * 1000 * options.think * (0.5 + (options.random ?? Math.random)()),
  );
  await payAtBank(visit, remitaOrigin, rrr, delayMs, options.timeoutMs);
  const arrivesAt = Date.now() + delayMs;
  outcome.paidReference = reference;
  options.events?.paid(rrr, arrivesAt);
  if (options.way === "bank-check") {
    // Back on the RRR page, pressing "I have paid — check now" as the money arrives: the status
    // check races Remita's notification.
    await sleep(Math.max(0, arrivesAt - Date.now()));
    const checked = await pressUntilItWorks(visit, options.faults, (retryable) =>
      browser.navigate(
        "I have paid — check now",
        at("/payment"),
        { status: 303, location: "/payment?reference=", retryable },
        { method: "POST", body: new URLSearchParams({ action: "check", reference }) },
      ),
    );
    await browser.navigate("RRR page after the check", at(checked.location!), {
      status: 200,
      marker: reference,
    });
    await think(THINK_SECONDS.readReceipt);
  }
}

/**
 * The bank's counter: the sandbox's test hook pays the RRR, arriving after `delayMs` with
 * Remita's notification (its bank page takes whole minutes; a run is shorter). Recorded as a step.
 */
async function payAtBank(
  { browser }: Visit,
  remitaOrigin: string,
  rrr: string,
  delayMs: number,
  timeoutMs: number,
) {
  const step = "pay at a bank (sandbox)";
  const recorder = browser.recorder;
  const started = performance.now();
  const address = new URL(`/__sandbox/rrr/${rrr}/pay`, remitaOrigin);
  if (address.hostname === "localhost") address.hostname = "127.0.0.1";
  let problem: string | null;
  try {
    const response = await request(address, {
      method: "POST",
      headers: {
        authorization: `Bearer ${REMITA_DEMO.apiKey}`,
        "content-type": "application/json",
        host: new URL(remitaOrigin).host,
      },
      body: JSON.stringify({ channel: "BRANCH", notify: true, delayMs }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await response.body.json()) as { state?: string };
    problem =
      response.statusCode !== 200
        ? `HTTP ${response.statusCode}`
        : body.state === "scheduled" || body.state === "paid"
          ? null
          : `the sandbox answered ${body.state ?? "nothing"}`;
  } catch (error) {
    problem = (error as Error).message;
  }
  recorder.record(step, performance.now() - started, problem ?? undefined);
  if (problem) throw new StepFailed(step, problem);
}
