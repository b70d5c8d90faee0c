import { Hono } from "hono";
import { z } from "zod";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { callerIsTheProvider } from "../http/provider-callback.ts";
import { readJson } from "../http/validate.ts";
import { requireStudent } from "../auth/require-student.ts";
import { normalizeNigerianPhone } from "../../common/validation/person.ts";
import {
  SMS_PREFERENCES_SAVED,
  SmsPreferencesRequest,
  type SmsPreferences,
} from "../../common/sms/sms-preferences.ts";
import { saveSmsPreferences, smsPreferencesOf, stopTexts } from "./preferences.ts";

/** Africa's Talking's opt-out notification: a form post naming the number and the sender id. */
const OptOutNotice = z.object({
  phoneNumber: z.string().max(40),
  senderId: z.string().max(40).optional(),
});

/**
 * The student's choice of texts, and the provider's STOP replies (decision 200). The provider signs
 * nothing: its callback address carries SMS_CALLBACK_SECRET (`?secret=`), and without one only
 * this machine may call (development and tests).
 */
export function smsRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  const signedIn = requireStudent(deps);

  app.get("/student/sms-preferences", signedIn, async (c) =>
    c.json({ status: "success", data: await smsPreferencesOf(deps.db, c.var.student.id) }),
  );

  app.put("/student/sms-preferences", signedIn, async (c) => {
    const choice = await readJson(c, SmsPreferencesRequest);
    await saveSmsPreferences(deps.db, c.var.student.id, choice, deps.now());
    // Saving a choice lifts a STOP: what was saved is the whole answer.
    const data: SmsPreferences = { ...choice, stopped_at: null };
    return c.json({ status: "success", message: SMS_PREFERENCES_SAVED, data });
  });

  app.post("/sms/opt-out", async (c) => {
    if (!callerIsTheProvider(c.req.query("secret"), c.get("clientAddress"), deps.smsCallbackSecret))
      throw new ApiError(404, "There is nothing at this address.");
    const form = await c.req.parseBody().catch(() => ({}));
    const notice = OptOutNotice.safeParse(form);
    const phone = notice.success ? normalizeNigerianPhone(notice.data.phoneNumber) : null;
    if (!notice.success || phone === null)
      throw new ApiError(
        400,
        "Send the opt-out as a form with phoneNumber, a Nigerian mobile number.",
      );
    const studentId = await stopTexts(deps.db, phone, deps.now());
    deps.logger.info("SMS opt-out received", { studentId });
    return c.text("OK");
  });

  return app;
}
