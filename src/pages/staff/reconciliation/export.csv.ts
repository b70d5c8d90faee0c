import type { APIRoute } from "astro";
import { ApiRefusal } from "../../../lib/api/server-api.server.ts";
import { RECONCILIATION_TIMEOUT_MS } from "../../../../common/payments/bursary.ts";

/** The reconciliation as CSV, for the same dates and session as the page (decision 101). */
export const GET: APIRoute = async ({ locals, url }) => {
  try {
    const answer = await locals.staffApi.download(
      `/staff/reconciliation.csv${url.search}`,
      RECONCILIATION_TIMEOUT_MS,
    );
    return new Response(answer.body, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": answer.headers.get("content-disposition") ?? "attachment",
      },
    });
  } catch (error) {
    if (!(error instanceof ApiRefusal)) throw error;
    return new Response(error.message, {
      status: error.status,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
};
