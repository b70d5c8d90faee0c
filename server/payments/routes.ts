import { Hono } from "hono";
import type { ApiDeps } from "../app.ts";
import type { ApiEnv } from "../http/context.ts";
import { readParams } from "../http/validate.ts";
import { assertOwnId, requireStudent } from "../auth/require-student.ts";
import { StudentIdParam } from "../students/routes.ts";
import { loadPaymentInfo } from "./payment-info.ts";

export function paymentRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  const signedIn = requireStudent(deps);

  app.get("/student/payment-info/:id", signedIn, async (c) => {
    const { id } = readParams(c, StudentIdParam);
    assertOwnId(c.var.student, id);
    return c.json({ status: "success", data: await loadPaymentInfo(deps.db, id) });
  });

  return app;
}
