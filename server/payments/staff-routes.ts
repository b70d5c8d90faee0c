import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { bursaryRoutes } from "./bursary/bursary-routes.ts";
import { feeRoutes } from "./fees/fee-routes.ts";

/** The bursary under /staff: the fee schedule (decision 095); payments, reconciliation and refunds (100-102). */
export function paymentStaffRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  app.route("/", feeRoutes(deps));
  app.route("/", bursaryRoutes(deps));
  return app;
}
