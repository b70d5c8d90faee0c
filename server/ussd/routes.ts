import { Hono } from "hono";
import { z } from "zod";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { readJson } from "../http/validate.ts";
import { callerIsTheProvider } from "../http/provider-callback.ts";
import { requireStudent } from "../auth/require-student.ts";
import { createRateLimiter, rateLimitRule } from "../auth/rate-limit.ts";
import { normalizeNigerianPhone } from "../../common/validation/person.ts";
import { formatCollegeTime } from "../../common/format/dates.ts";
import { USSD_PIN_SAVED, UssdPinRequest } from "../../common/ussd/ussd-pin.ts";
import { say } from "./languages/index.ts";
import { walkMenu } from "./menu.ts";
import { checkUssdPin, sessionHasPin, setUssdPin, ussdCaller, ussdPinState } from "./pin.ts";
import { answerChoice, menuContext, screenText } from "./answers.ts";
import { createPaymentLimits } from "../payments/payment-limits.ts";
import { done, more, type UssdAnswer } from "./screens.ts";

/** Africa's Talking's USSD callback: a form post, one per screen, `text` the choices so far joined by `*`. */
const UssdCallback = z.object({
  sessionId: z.string().min(1).max(100),
  serviceCode: z.string().max(40).optional(),
  phoneNumber: z.string().min(1).max(40),
  text: z.string().max(400).default(""),
  networkCode: z.string().max(20).optional(),
});

/** Screens a phone may ask for: a walk through the whole menu is a dozen. */
const SCREENS_PER_PHONE = rateLimitRule({ limit: 60, windowMs: 10 * 60_000 });
/** Passwords tried to set a PIN: the form is a way to test a signed-in session's password. */
const PIN_PASSWORDS_PER_STUDENT = rateLimitRule({ limit: 5, windowMs: 15 * 60_000 });

/**
 * The USSD menu (`POST /ussd`, decision 202) and the student's PIN for it (`GET` and
 * `PUT /student/ussd-pin`).
 */
export function ussdRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  const signedIn = requireStudent(deps);
  const screensPerPhone = createRateLimiter(deps.db, SCREENS_PER_PHONE);
  const pinPasswords = createRateLimiter(deps.db, PIN_PASSWORDS_PER_STUDENT);
  const menuDeps = { ...deps, paymentLimits: createPaymentLimits(deps.db) };

  app.get("/student/ussd-pin", signedIn, async (c) =>
    c.json({
      status: "success",
      data: await ussdPinState(deps.db, c.var.student.id, deps.now(), deps.ussdDialCode ?? null),
    }),
  );

  app.put("/student/ussd-pin", signedIn, async (c) => {
    const request = await readJson(c, UssdPinRequest);
    const { blocked } = await pinPasswords.hit(`ussd-pin:${c.var.student.id}`, deps.now());
    if (blocked)
      throw new ApiError(
        429,
        "You have tried your password too many times. Wait 15 minutes, then set your USSD PIN.",
      );
    await setUssdPin(deps.db, c.var.student, request, deps.now());
    deps.logger.info("USSD PIN set", { studentId: c.var.student.id });
    return c.json({
      status: "success",
      message: USSD_PIN_SAVED,
      data: await ussdPinState(deps.db, c.var.student.id, deps.now(), deps.ussdDialCode ?? null),
    });
  });

  app.post("/ussd", async (c) => {
    if (!callerIsTheProvider(c.req.query("secret"), c.get("clientAddress"), deps.smsCallbackSecret))
      throw new ApiError(404, "There is nothing at this address.");
    const form = await c.req.parseBody().catch(() => ({}));
    const callback = UssdCallback.safeParse(form);
    if (!callback.success)
      throw new ApiError(
        400,
        "Send the USSD callback as a form with sessionId, phoneNumber and text.",
      );
    return c.text(await answer(menuDeps, callback.data, screensPerPhone));
  });

  return app;
}

async function answer(
  deps: Parameters<typeof menuContext>[0],
  callback: z.infer<typeof UssdCallback>,
  screensPerPhone: ReturnType<typeof createRateLimiter>,
): Promise<UssdAnswer> {
  const now = deps.now();
  const phone = normalizeNigerianPhone(callback.phoneNumber);
  // A number on no record and one whose student set no PIN hear the same words.
  const caller = phone ? await ussdCaller(deps.db, phone, now) : null;
  if (!caller) return done(say("en", "no_pin"));
  const { blocked } = await screensPerPhone.hit(`ussd:${caller.phone}`, now);
  if (blocked) return done(say(caller.language, "session_over"));
  const language = caller.language;
  const locked = (until: Date) => done(say(language, "locked", { time: formatCollegeTime(until) }));
  const [pin, ...choices] = callback.text === "" ? [] : callback.text.split("*");
  if (pin === undefined)
    return caller.lockedUntil ? locked(caller.lockedUntil) : more(say(language, "ask_pin"));

  if (!choices.length) {
    if (!/^\d{4}$/.test(pin)) return done(say(language, "pin_is_4_digits"));
    const check = await checkUssdPin(
      deps.db,
      deps.jobs,
      caller,
      { sessionId: callback.sessionId, pin },
      now,
    );
    if (check.kind === "locked") {
      if (check.lockedNow)
        deps.logger.info("USSD menu locked after wrong PINs", { studentId: caller.studentId });
      return locked(check.until);
    }
    if (check.kind === "wrong") return done(say(language, "wrong_pin", { tries: check.triesLeft }));
  } else if (!(await sessionHasPin(deps.db, caller, callback.sessionId, now))) {
    return done(say(language, "session_over"));
  }

  const context = menuContext(deps, caller);
  const walked = await walkMenu(choices, context.payChoices);
  if (walked.kind === "screen")
    return more(await screenText(context, walked.place, walked.notOnMenu));
  return answerChoice(context, walked);
}
