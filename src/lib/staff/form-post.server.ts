import { z } from "zod";
import { ApiRefusal } from "../api/server-api.server.ts";

/** The `{ message }` every staff action answers with. */
export const Done = z.object({ message: z.string() });

/** What a staff page shows after its own form post: the API's sentence, or its refusal and status. */
export type FormPostOutcome = { form?: FormData; notice?: string; problem?: string };

// Astro types a response's status as optional; the page only ever sets it.
type Page = { request: Request; response: { status?: number } };

/**
 * Runs a staff page's plain form post (no JavaScript needed); nothing for a GET. `send` calls
 * the API for the form's action, or answers null for an action it does not know. A refusal
 * becomes the page's alert with the API's status; anything else is a real error and is thrown.
 */
export async function staffFormPost(
  page: Page,
  send: (form: FormData, action: string) => Promise<{ message: string } | null>,
): Promise<FormPostOutcome> {
  if (page.request.method !== "POST") return {};
  const form = await page.request.formData().catch(() => new FormData());
  try {
    const answer = await send(form, String(form.get("action")));
    return { form, notice: answer?.message };
  } catch (error) {
    if (!(error instanceof ApiRefusal)) throw error;
    page.response.status = error.status;
    return { form, problem: error.message };
  }
}
