import { z } from "zod";
import { ApiRefusal, type ServerApi } from "../api/server-api.server.ts";
import { ImportReport, type ImportKind } from "../../../common/structure/structure.ts";

const Done = z.object({ message: z.string() });

/** What a structure page shows after a form post: a notice, a refusal, or an import's report. */
export type PostOutcome = {
  notice?: string;
  problem?: string;
  report?: ImportReport;
  status?: number;
};

/** The list's address for a page number, keeping the other filters. */
export function pageLink(url: URL, page: number) {
  const params = new URLSearchParams(url.searchParams);
  params.set("page", String(page));
  params.delete("edit");
  return `${url.pathname}?${params}`;
}

/**
 * Handles a structure (or fee schedule) page's form post (no JavaScript needed): `action=import` forwards the CSV
 * file to POST /staff/{what}/import; `create` and `update` send the filled-in fields as JSON
 * (empty fields left out, so an optional one keeps its default; one sent more than once as a list).
 */
export async function handleStructurePost(
  request: Request | FormData,
  api: ServerApi,
  what: ImportKind | "fees",
): Promise<PostOutcome> {
  const form =
    request instanceof FormData ? request : await request.formData().catch(() => new FormData());
  const action = String(form.get("action"));
  try {
    if (action === "import") {
      const upload = new FormData();
      const file = form.get("file");
      if (file instanceof File && file.size > 0) upload.set("file", file);
      upload.set("dry_run", form.get("dry_run") === "true" ? "true" : "false");
      const report = await api.upload(`/staff/${what}/import`, upload, ImportReport, [422]);
      return { report, status: report.written || report.dry_run ? 200 : 422 };
    }
    // A field sent more than once (ticked boxes of one name) goes on as a list.
    const fields: Record<string, string | string[]> = {};
    for (const [key, value] of form) {
      if (typeof value !== "string" || value.trim() === "" || key === "action" || key === "id")
        continue;
      const earlier = fields[key];
      fields[key] = earlier === undefined ? value : [earlier, value].flat();
    }
    const answer =
      action === "update"
        ? await api.send("PATCH", `/staff/${what}/${Number(form.get("id"))}`, fields, Done)
        : await api.send("POST", `/staff/${what}`, fields, Done);
    return { notice: answer.message };
  } catch (error) {
    if (!(error instanceof ApiRefusal)) throw error;
    return { problem: error.message, status: error.status };
  }
}
