import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { readJson, readParams } from "../http/validate.ts";
import { assertOwnId, requireStudent } from "../auth/require-student.ts";
import { BIODATA_BODY_LIMIT } from "../../common/http/body-limits.ts";
import {
  ContactChangeConfirmation,
  CONTACT_CHANGED,
} from "../../common/students/contact-change.ts";
import { assertUnlocked } from "./biodata-lock.ts";
import { updateBiodata } from "./biodata.ts";
import { confirmContactChange, pendingContactChange } from "./contact-change.ts";
import { StudentIdParam } from "./routes.ts";
import { loadStudentRecord } from "./student-record.ts";

const TOO_LARGE = "The photo is larger than 5 MB. Choose a smaller photo.";
const NOT_A_FORM = "Send the biodata as a form (multipart/form-data).";

export function biodataRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  const signedIn = requireStudent(deps);

  app.patch(
    "/student/biodata-update/:id",
    signedIn,
    // Refused before the body is read: a stranger's or a locked record costs no upload.
    async (c, next) => {
      const { id } = readParams(c, StudentIdParam);
      assertOwnId(c.var.student, id);
      assertUnlocked(c.var.student);
      await next();
    },
    bodyLimit({
      maxSize: BIODATA_BODY_LIMIT,
      onError: () => {
        throw new ApiError(413, TOO_LARGE, { fields: { photo: TOO_LARGE } });
      },
    }),
    async (c) => {
      const type = c.req.header("content-type") ?? "";
      if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/.test(type)) {
        throw new ApiError(400, NOT_A_FORM);
      }
      let form: FormData;
      try {
        form = await c.req.formData();
      } catch {
        throw new ApiError(400, NOT_A_FORM);
      }
      const { row, contactChangeSent } = await updateBiodata(deps, c.var.student, form);
      return c.json({
        status: "success",
        message: contactChangeSent ?? "Update successful",
        data: await loadStudentRecord(deps.db, row),
        contact_change_pending: contactChangeSent !== null,
      });
    },
  );

  // The confirmation page asks what its link would change, to name it beside the button.
  app.post("/student/contact-change/pending", signedIn, async (c) => {
    const { token } = await readJson(c, ContactChangeConfirmation);
    return c.json({
      status: "success",
      data: await pendingContactChange(deps, c.var.student, token),
    });
  });

  // The link mailed for a new phone number or e-mail leads to a page that posts its token here.
  app.post("/student/contact-change/confirm", signedIn, async (c) => {
    const { token } = await readJson(c, ContactChangeConfirmation);
    const address = c.get("clientAddress");
    const row = await confirmContactChange(deps, c.var.student, token, address);
    return c.json({
      status: "success",
      message: CONTACT_CHANGED,
      data: await loadStudentRecord(deps.db, row),
    });
  });

  return app;
}
