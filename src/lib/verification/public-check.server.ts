import type { z } from "zod";
import { answerOf } from "../api/answer.ts";
import { ApiRefusal, type ServerApi } from "../api/server-api.server.ts";

export type CheckOutcome = "genuine" | "not-genuine" | "unavailable";

type Page = { locals: { api: ServerApi }; response: { status?: number; headers: Headers } };

/**
 * What a public check page (a slip's, results', an exam card's or a transcript's QR) shows for
 * its token: the API's answer when it vouches for it, else "not genuine" (404) for anything the
 * API refuses and "unavailable" (503) when it could not be asked. A bad token is never a server
 * error, and no check is kept by a cache or offered to search engines.
 */
export async function loadPublicCheck<T>(
  page: Page,
  apiPath: string,
  schema: z.ZodType<T>,
): Promise<{ outcome: CheckOutcome; found: T | null }> {
  page.response.headers.set("cache-control", "no-store");
  page.response.headers.set("x-robots-tag", "noindex");
  try {
    const answer = await page.locals.api.get(apiPath, answerOf(schema));
    return { outcome: "genuine", found: answer.data as T };
  } catch (error) {
    const outcome =
      error instanceof ApiRefusal && error.status < 500 ? "not-genuine" : "unavailable";
    page.response.status = outcome === "not-genuine" ? 404 : 503;
    return { outcome, found: null };
  }
}
