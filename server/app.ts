import { Hono, type Context, type Next } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { createSessionCache } from "./auth/session-cache.ts";
import { createSharedReads } from "./http/shared-reads.ts";
import {
  CSV_IMPORT_BODY_LIMIT,
  CSV_TOO_LARGE,
  isBiodataUpload,
  isCsvImport,
  JSON_BODY_LIMIT,
} from "../common/http/body-limits.ts";
import type { ApiEnv } from "./http/context.ts";
import type { ApiDeps } from "./deps.ts";
import { ApiError, errorBody, handleError } from "./http/errors.ts";
import { clientAddressOf, isLoopback } from "./http/client-address.ts";
import { logRequests } from "./http/request-log.ts";
import { createOutboxPage } from "./mail/outbox-page.ts";
import { createSmsOutboxPage } from "./sms/outbox-page.ts";
import { reconcilePendingPayments } from "./payments/reconciler.ts";
import { holdTheDoor } from "./waiting-line/line-store.ts";
import { readJson } from "./http/validate.ts";
import { authRoutes } from "./auth/routes.ts";
import { courseRoutes } from "./courses/routes.ts";
import { catalogueRoutes } from "./courses/catalogue-routes.ts";
import { paymentRoutes } from "./payments/routes.ts";
import { setupRoutes } from "./setup/routes.ts";
import { studentRoutes } from "./students/routes.ts";
import { complaintRoutes } from "./complaints/routes.ts";
import { libraryRoutes } from "./library/routes.ts";
import { passwordRoutes } from "./password/routes.ts";
import { resetCodeRoutes } from "./password/code-routes.ts";
import { biodataRoutes } from "./students/biodata-routes.ts";
import { staffAnswers } from "./http/staff-answers.ts";
import { staffRoutes } from "./staff/routes.ts";
import { auditStaffRoutes } from "./audit/staff-routes.ts";
import { studentStaffRoutes } from "./students/staff-routes.ts";
import { structureStaffRoutes } from "./structure/staff-routes.ts";
import { academicSessionStaffRoutes } from "./academic-sessions/staff-routes.ts";
import { courseStaffRoutes } from "./courses/staff-routes.ts";
import { paymentStaffRoutes } from "./payments/staff-routes.ts";
import { smsStaffRoutes } from "./sms/staff-routes.ts";
import { smsRoutes } from "./sms/routes.ts";
import { ussdRoutes } from "./ussd/routes.ts";
import { createUssdSimulatorPage } from "./ussd/simulator-page.ts";
import { complaintStaffRoutes } from "./complaints/staff-routes.ts";
import { announcementStaffRoutes } from "./announcements/staff-routes.ts";
import { libraryStaffRoutes } from "./library/staff-routes.ts";
import { resultStaffRoutes } from "./results/staff-routes.ts";
import { scoreFileRoutes } from "./results/score-file-routes.ts";
import { resultRoutes } from "./results/routes.ts";
import { transcriptRoutes } from "./transcripts/routes.ts";
import { healthRoutes } from "./health/routes.ts";

/** The college API: one router per domain behind shared error handling and limits. */
const HoldTheDoor = z.object({ hold: z.boolean() }).strict();

export function createApi(givenDeps: Omit<ApiDeps, "sharedReads">) {
  const cacheMs = givenDeps.sessions.cacheMs ?? 0;
  const deps: ApiDeps = {
    ...givenDeps,
    sessionCache: createSessionCache({ ttlMs: cacheMs }),
    sharedReads: createSharedReads({ ttlMs: cacheMs }),
  };
  const app = new Hono<ApiEnv>();

  // First, so a load balancer's probe every few seconds passes no middleware and logs nothing.
  app.route("/", healthRoutes(deps));
  app.use(logRequests(deps));
  app.use(async (c, next) => {
    c.set(
      "clientAddress",
      clientAddressOf(c.req.raw, c.env?.incoming?.socket?.remoteAddress, deps.proxySecret),
    );
    await next();
  });
  app.use(async (c, next) => {
    // Only the passport upload route sets its own larger limit; a claimed content type alone
    // must not lift the limit elsewhere (readJson reads any body whatever its type).
    if (
      c.req.method === "GET" ||
      c.req.method === "HEAD" ||
      isBiodataUpload(c.req.method, c.req.path)
    )
      return next();
    return bodyLimit({
      maxSize: isCsvImport(c.req.method, c.req.path) ? CSV_IMPORT_BODY_LIMIT : JSON_BODY_LIMIT,
      onError: () => {
        throw new ApiError(
          413,
          isCsvImport(c.req.method, c.req.path) ? CSV_TOO_LARGE : "That request is too large.",
        );
      },
    })(c, next);
  });

  app.route("/", authRoutes(deps));
  app.route("/", studentRoutes(deps));
  app.route("/", biodataRoutes(deps));
  app.route("/", setupRoutes(deps));
  app.route("/", paymentRoutes(deps));
  app.route("/", courseRoutes(deps));
  app.route("/", catalogueRoutes(deps));
  app.route("/", complaintRoutes(deps));
  app.route("/", libraryRoutes(deps));
  app.route("/", resultRoutes(deps));
  app.route("/", passwordRoutes(deps));
  app.route("/", resetCodeRoutes(deps));
  app.route("/", smsRoutes(deps));
  app.route("/", ussdRoutes(deps));

  // The staff side, each domain's routes under /staff (the decision numbers are in each file).
  app.use("/staff/*", staffAnswers(deps));
  app.route("/", staffRoutes(deps));
  app.route("/", auditStaffRoutes(deps));
  app.route("/", studentStaffRoutes(deps));
  app.route("/", structureStaffRoutes(deps));
  app.route("/", academicSessionStaffRoutes(deps));
  app.route("/", courseStaffRoutes(deps));
  app.route("/", paymentStaffRoutes(deps));
  app.route("/", smsStaffRoutes(deps));
  app.route("/", complaintStaffRoutes(deps));
  app.route("/", announcementStaffRoutes(deps));
  app.route("/", libraryStaffRoutes(deps));
  app.route("/", resultStaffRoutes(deps));
  // Student, exams-office and public routes together; after staffAnswers, which its staff route needs.
  app.route("/", transcriptRoutes(deps));
  app.route("/", scoreFileRoutes(deps));

  // Every e-mail and text message lands in the outboxes, password links and codes included: only
  // the developer's own machine may read them. Anyone else is answered as if there were nothing,
  // like any unknown address.
  const loopbackOnly = async (c: Context<ApiEnv>, next: Next) =>
    isLoopback(c.get("clientAddress"))
      ? next()
      : c.json(errorBody("There is nothing at this address."), 404);
  if (deps.smsOutboxDir) {
    app.use("/dev/sms-outbox/*", loopbackOnly);
    app.route("/dev/sms-outbox", createSmsOutboxPage({ dir: deps.smsOutboxDir }));
    // Beside the SMS outbox, where what the menu texts lands: development only.
    app.use("/dev/ussd/*", loopbackOnly);
    app.route(
      "/dev/ussd",
      createUssdSimulatorPage({
        callbackSecret: deps.smsCallbackSecret,
        dialCode: deps.ussdDialCode,
      }),
    );
  }
  if (deps.outboxDir) {
    app.use("/dev/outbox/*", loopbackOnly);
    app.route("/dev/outbox", createOutboxPage({ dir: deps.outboxDir }));
    // The reconciler now, over every pending payment however young (its schedule waits minutes
    // to hours): how a developer or a journey sees a payment made at a bank credited with
    // nobody pressing anything, without waiting for the clock.
    app.post("/dev/reconcile-payments", loopbackOnly, async (c) =>
      c.json({
        status: "success",
        data: { credited: await reconcilePendingPayments(deps, { minAgeMs: 0 }) },
      }),
    );
    // Holds the line at the door (decision 193): every newcomer waits, as on deadline day, until
    // it is let go. How a journey sees the waiting page without a crowd.
    app.post("/dev/waiting-line", loopbackOnly, async (c) => {
      const { hold } = await readJson(c, HoldTheDoor);
      await holdTheDoor(deps.db, hold);
      return c.json({ status: "success", data: { held: hold } });
    });
  }

  app.notFound((c) => c.json(errorBody("There is nothing at this address."), 404));
  app.onError(handleError);
  return app;
}
export type Api = ReturnType<typeof createApi>;
