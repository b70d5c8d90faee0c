import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** The API's error shape (server/http/errors.ts), so page scripts read the proxy's refusals alike. */
export function apiErrorBody(message: string, fields?: Record<string, string>) {
  return { status: "error" as const, message, error: { message, ...(fields ? { fields } : {}) } };
}

/**
 * A refusal the proxy answers itself: JSON in the API's shape for /api/*, a small page for
 * everything else (a form posted without JavaScript lands on it). `fields` names the inputs at fault.
 */
export function refuse(
  c: Context,
  status: ContentfulStatusCode,
  message: string,
  fields?: Record<string, string>,
) {
  if (new URL(c.req.url).pathname.startsWith("/api/")) {
    return c.json(apiErrorBody(message, fields), status);
  }
  return c.html(refusalPage(message), status);
}

function refusalPage(message: string) {
  const text = message.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Request refused</title>
<main style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem">
<h1>That did not go through</h1>
<p>${text}</p>
<p><a href="/">Back to the portal</a></p>
</main>
</html>
`;
}
