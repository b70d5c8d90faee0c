import type { APIRoute } from "astro";
import { ApiRefusal } from "../../../../lib/api/server-api.server.ts";

/** The course's roster as a score file to fill in (matric_no,ca,exam), with what is saved already. */
export const GET: APIRoute = async ({ locals, params }) => {
  try {
    const answer = await locals.staffApi.download(
      `/staff/results/offerings/${encodeURIComponent(params.id ?? "")}/scores.csv`,
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
