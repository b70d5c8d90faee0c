import { Hono } from "hono";
import { z } from "zod";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { readParams } from "../http/validate.ts";
import { assertOwnId, requireStudent } from "../auth/require-student.ts";
import { StudentIdParam } from "../students/routes.ts";
import { hostelInvoicesOf } from "./hostel.ts";
import { ReferenceParam } from "./reference.ts";
import { checkSlip, hostelSlip, schoolFeeSlip } from "./slips.ts";
import { checkInvoice, remitaInvoice } from "./remita-invoice.ts";

// Any shape is answered with the same "not genuine" as a bad signature.
const TokenParam = z.object({ token: z.string() });

/**
 * Hostel invoices, printable slips and Remita invoices, and the public check behind each one's
 * QR code.
 */
export function slipRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  const signedIn = requireStudent(deps);

  app.get("/student/hostel-invoices/:id", signedIn, async (c) => {
    const { id } = readParams(c, StudentIdParam);
    assertOwnId(c.var.student, id);
    return c.json({ status: "success", data: await hostelInvoicesOf(deps.db, id) });
  });

  app.get("/student/invoice/school-fee/:reference", signedIn, async (c) => {
    const { reference } = readParams(c, ReferenceParam);
    return c.json({
      status: "success",
      data: await schoolFeeSlip(deps, c.var.student, reference),
    });
  });

  app.get("/student/invoice/hostel/:reference", signedIn, async (c) => {
    const { reference } = readParams(c, ReferenceParam);
    return c.json({ status: "success", data: await hostelSlip(deps, c.var.student, reference) });
  });

  app.get("/student/invoice/remita/:reference", signedIn, async (c) => {
    const { reference } = readParams(c, ReferenceParam);
    return c.json({
      status: "success",
      data: await remitaInvoice(deps, c.var.student.id, reference),
    });
  });

  // Public: a bursar or a bank scans the QR code without signing in. The signature is the authority.
  app.get("/slips/verify/:token", async (c) => {
    const { token } = readParams(c, TokenParam);
    return c.json({ status: "success", data: await checkSlip(deps, token) });
  });

  app.get("/invoices/verify/:token", async (c) => {
    const { token } = readParams(c, TokenParam);
    return c.json({ status: "success", data: await checkInvoice(deps, token) });
  });

  return app;
}
