import type { Context } from "hono";
import { ApiError } from "../http/errors.ts";
import { decodeCsv } from "./csv-file.ts";

/**
 * Reads an import request: multipart with the field `file` and an optional `dry_run=true`.
 * Answers the file's text (checked by decodeCsv) and whether this is a dry run.
 */
export async function readCsvUpload(c: Context): Promise<{ text: string; dryRun: boolean }> {
  const form = await c.req.formData().catch(() => {
    throw new ApiError(
      400,
      'Send the file as a form upload (multipart/form-data) in the field "file".',
    );
  });
  const file = form.get("file");
  if (!(file instanceof File)) {
    throw new ApiError(400, "Choose a CSV file to import.", {
      fields: { file: "Choose a CSV file to import." },
    });
  }
  const dryRun = String(form.get("dry_run") ?? "false").toLowerCase();
  if (!["true", "false", ""].includes(dryRun)) {
    throw new ApiError(400, "dry_run must be true or false.", {
      fields: { dry_run: "Use true or false." },
    });
  }
  return { text: decodeCsv(new Uint8Array(await file.arrayBuffer())), dryRun: dryRun === "true" };
}
