import { setTimeout as sleep } from "node:timers/promises";
import { MAX_UNITS } from "../../common/courses/registration-status.ts";
import { StepFailed, VirtualBrowser } from "./browser.ts";
import type { StepRecorder } from "./stats.ts";

/** A student account made for the run, and what the student will choose. */
export type StudentAccount = {
  id: number;
  phone: string;
  password: string;
  othername: string;
  level: number;
  /** The session open for registration, as the college's notice board tells every student. */
  session: string;
  paymentOption: "full" | "part";
};

/** What one student got done, for the database checks at the end. */
export type JourneyOutcome = {
  studentId: number;
  completed: boolean;
  /** The naira amount the quote showed. */
  quotedNaira?: number;
  /** Paid at the checkout (the sandbox took the card and sent the student back). */
  paidReference?: string;
  /** Where the portal's checkout lives, as the initialise answer gave it. */
  checkoutOrigin?: string;
  /** The gateway the student paid through. */
  gateway?: "paystack" | "remita";
  /** The RRR the Payment page gave a Remita student. */
  rrr?: string;
  /** Where the Remita sandbox lives, as the RRR page's "Pay online on Remita" form names it. */
  remitaOrigin?: string;
  registeredCourseIds: number[];
  /** The step that failed and why; the student went no further. */
  failure?: { step: string; problem: string };
};

/** The step whose failure leaves unknown whether the courses were registered. */
export const REGISTER_STEP = "register courses";

type OfferedCourse = { course_id: number; code: string; unit: string | number; semester: number };

/** Seconds a person spends on each page before the next click, at think factor 1. */
export const THINK_SECONDS = {
  typeCredentials: 6,
  readDashboard: 4,
  choosePayment: 5,
  confirmAmount: 3,
  enterCard: 10,
  readReceipt: 3,
  readHistory: 4,
  openRegistration: 3,
  tickCourses: 15,
  readRegistered: 3,
  printSlip: 4,
};

export type JourneyOptions = {
  origin: string;
  localAddress: string;
  recorder: StepRecorder;
  timeoutMs: number;
  think: number;
  /** 0..1, replaceable in tests. */
  random?: () => number;
  /**
   * A run under faults: a refusal caused by the gateway being down is tried again as a person
   * would, and a dropped connection (a killed worker) is sent again once.
   */
  faults?: boolean;
};

/**
 * The way in every scenario shares: the sign-in page, the student typing, signing in as
 * themselves, and the dashboard greeting them by name.
 */
export async function signInToDashboard(
  browser: VirtualBrowser,
  account: StudentAccount,
  at: (path: string) => URL,
  typing: () => Promise<unknown>,
) {
  await browser.navigate("login page", at("/login"), { status: 200, marker: 'name="username"' });
  await typing();
  await browser.api<{ data: { tokens: { student: { id: number } } } }>(
    "sign in",
    "/api/student/uniben/login",
    {
      status: 200,
      accept: (answer) =>
        answer.data.tokens.student.id === account.id ? null : "signed in as someone else",
    },
    { username: account.phone, password: account.password },
  );
  await browser.navigate("dashboard", at("/"), {
    status: 200,
    marker: `Welcome, ${account.othername}`,
  });
}

/**
 * One student's registration week, as their browser does it: sign in, dashboard, pay the school
 * fee by card at the checkout and come back through verification, payment history, register
 * courses within the cap, the slip, sign out. The first failed step ends the visit: a real student
 * would be stuck there too.
 */
export function playStudent(
  account: StudentAccount,
  options: JourneyOptions,
): Promise<JourneyOutcome> {
  return playVisit(account, options, async (visit) => {
    await signInToDashboard(visit.browser, account, visit.at, () =>
      visit.think(THINK_SECONDS.typeCredentials),
    );
    await visit.think(THINK_SECONDS.readDashboard);
    await payAtPaystackCheckout(visit, account, options);
    await registerPrintAndSignOut(visit, account);
  });
}

/**
 * The school fee paid by card at the Paystack sandbox's checkout, back through verification to
 * the payment history.
 */
async function payAtPaystackCheckout(
  { browser, outcome, think, at }: Visit,
  account: StudentAccount,
  options: JourneyOptions,
) {
  const choice = await quoteOnPaymentPage({ browser, outcome, think, at }, account, "paystack");
  const started = await browser.api<{
    status: string;
    authorization_url?: string;
    reference?: string;
  }>(
    "initialise payment",
    "/api/student/school-fee",
    {
      status: 200,
      accept: (answer) =>
        answer.status === "pending" && answer.authorization_url && answer.reference
          ? null
          : `answered "${answer.status}", not a checkout`,
    },
    { student_id: account.id, ...choice },
  );
  const checkout = new URL(started.authorization_url!);
  outcome.checkoutOrigin = checkout.origin;
  await browser.navigate("checkout page", checkout, {
    status: 200,
    marker: "Paystack sandbox checkout",
  });
  await think(THINK_SECONDS.enterCard);
  // Paystack sends the browser back to the callback with the reference, as trxref and reference.
  const reference = started.reference!;
  const callback = `${options.origin}/paystack/verify?${new URLSearchParams({ trxref: reference, reference })}`;
  await browser.navigate(
    "pay at checkout",
    `${checkout.pathname}/pay`,
    { status: 303, location: callback },
    { method: "POST" },
  );
  outcome.paidReference = reference;
  await browser.navigate("verify page", callback, {
    status: 200,
    marker: "Verifying payment...",
  });
  const check = `/paystack/verify?${new URLSearchParams({ reference, check: "1" })}`;
  await browser.navigate("verify check", at(check), { status: 303, location: "/successful" });
  await readReceiptAndHistory({ browser, think, at }, reference);
}

/** After paying: the success page, then the payment history listing `reference`. */
export async function readReceiptAndHistory(
  { browser, think, at }: Pick<Visit, "browser" | "think" | "at">,
  reference: string,
) {
  await browser.navigate("payment successful", at("/successful"), {
    status: 200,
    marker: "Payment successful",
  });
  await think(THINK_SECONDS.readReceipt);
  await browser.navigate("payment history", at("/history/payments"), {
    status: 200,
    marker: reference,
  });
  await think(THINK_SECONDS.readHistory);
}

/** Courses within the cap registered, the slip printed, signed out: the end of every visit. */
export async function registerPrintAndSignOut(
  { browser, outcome, think, at }: Visit,
  account: StudentAccount,
) {
  await browser.navigate("registration page", at("/course-reg"), {
    status: 200,
    marker: "<title>Registration",
  });
  await think(THINK_SECONDS.openRegistration);
  const offered = await browser.api<{ data: { data: OfferedCourse[] } }>(
    "mapped courses",
    `/api/courses/mapped/read?mapped_level=${account.level}`,
    {
      status: 200,
      accept: (answer) => (answer.data.data.length > 0 ? null : "no courses offered"),
    },
  );
  const chosen = chooseWithinCap(offered.data.data);
  await think(THINK_SECONDS.tickCourses);
  const units = chosen.reduce((sum, course) => sum + Number(course.unit), 0);
  await browser.api<{ data: { registered: number; units: number } }>(
    REGISTER_STEP,
    "/api/courses/register",
    {
      status: 201,
      accept: (answer) =>
        answer.data.registered === chosen.length && answer.data.units === units
          ? null
          : `registered ${answer.data.registered} courses, ${answer.data.units} units; asked ${chosen.length}, ${units}`,
    },
    {
      courses: chosen.map((course) => course.course_id),
      registration_level: account.level,
      session: account.session,
    },
  );
  outcome.registeredCourseIds = chosen.map((course) => course.course_id);
  const picker = `/course-reg?${new URLSearchParams({ session: account.session, level: String(account.level), registered: "1" })}`;
  await browser.navigate("registered page", at(picker), {
    status: 200,
    marker: "Your courses have been registered.",
  });
  await think(THINK_SECONDS.readRegistered);
  const slip = `/course-reg/print?${new URLSearchParams({ level: String(account.level), session: account.session })}`;
  await browser.navigate("registration slip", at(slip), { status: 200, marker: chosen[0]!.code });
  await think(THINK_SECONDS.printSlip);

  await browser.navigate(
    "sign out",
    at("/logout"),
    { status: 303, location: "/login?signed_out=1" },
    { method: "POST" },
  );
  await browser.navigate("signed-out page", at("/login?signed_out=1"), {
    status: 200,
    marker: 'name="username"',
  });
}

/**
 * The Payment page and the quote, as every way to pay begins: the student opens the page, chooses,
 * reads the amount (which must be quoted, through `gateway` among the ways offered) and confirms.
 * Answers the choice the payment is started with.
 */
export async function quoteOnPaymentPage(
  { browser, outcome, think, at }: Visit,
  account: StudentAccount,
  gateway: "paystack" | "remita",
) {
  outcome.gateway = gateway;
  await browser.navigate("payment page", at("/payment"), {
    status: 200,
    marker: "Pay school fees",
  });
  await think(THINK_SECONDS.choosePayment);
  const choice = {
    payment_option: account.paymentOption,
    payment_level: account.level,
    payment_session: account.session,
  };
  const quote = await browser.api<{ data: { amount: number; gateways: string[] } }>(
    "quote",
    "/api/student/generate-payment",
    {
      status: 200,
      accept: (answer) =>
        answer.data.amount <= 0
          ? "no amount quoted"
          : answer.data.gateways.includes(gateway)
            ? null
            : `${gateway} not offered (${answer.data.gateways.join(", ")})`,
    },
    { payment_name: "schoolfees", ...choice },
  );
  outcome.quotedNaira = quote.data.amount;
  await think(THINK_SECONDS.confirmAmount);
  return choice;
}

/** What a scenario's steps work with: the student's browser, their outcome so far, their pace. */
export type Visit = {
  browser: VirtualBrowser;
  outcome: JourneyOutcome;
  /** Waits a person's reading time: `seconds` at think factor 1, ±50 %. */
  think: (seconds: number) => Promise<unknown>;
  at: (path: string) => URL;
};

/**
 * Plays one student's visit in a browser of their own: the first failed step ends it (a real
 * student would be stuck there too) and is recorded in the outcome; `steps` returning is the
 * visit completed.
 */
export async function playVisit(
  account: StudentAccount,
  options: JourneyOptions,
  steps: (visit: Visit) => Promise<void>,
): Promise<JourneyOutcome> {
  const browser = new VirtualBrowser(options.localAddress, options.recorder, options.timeoutMs, {
    resendDropped: options.faults,
  });
  const outcome: JourneyOutcome = {
    studentId: account.id,
    completed: false,
    registeredCourseIds: [],
  };
  const arrivedAt = Date.now();
  const random = options.random ?? Math.random;
  // ±50 % around each think time, so students who arrive together drift apart as people do.
  const think = (seconds: number) => sleep(seconds * 1000 * options.think * (0.5 + random()));
  const at = (path: string) => new URL(path, options.origin);
  try {
    await steps({ browser, outcome, think, at });
    outcome.completed = true;
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
    outcome.failure = { step: error.step, problem: error.problem };
  } finally {
    await browser.close();
  }
  options.recorder.recordStudent({
    studentId: account.id,
    arrivedAt,
    ...browser.lineRecord(),
    finished: outcome.completed,
  });
  return outcome;
}

/**
 * What a student ticks: the courses offered, in the order listed, each one that still fits under
 * the session's unit cap (the page refuses a tick past it; so does the server).
 */
export function chooseWithinCap<T extends { unit: string | number }>(
  offered: readonly T[],
  cap = MAX_UNITS,
): T[] {
  const chosen: T[] = [];
  let units = 0;
  for (const course of offered) {
    const unit = Number(course.unit);
    if (units + unit > cap) continue;
    chosen.push(course);
    units += unit;
  }
  return chosen;
}
