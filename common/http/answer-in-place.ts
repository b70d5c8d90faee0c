import type { Context } from "hono";

/**
 * Changing an answer after the handler made it, without Hono copying it. `c.header()` on a
 * finished answer, and `c.res = …` over one, both make `new Response(old.body, old)`: asking for
 * `body` turns an answer made from a string into a stream, which the server then pumps out piece
 * by piece, and nothing can read it as made any more (decision 194).
 */

/** Sets a header on the answer as it stands (a copy only when its headers are immutable). */
export function setAnswerHeader(c: Context, name: string, value: string) {
  try {
    c.res.headers.set(name, value);
  } catch {
    // An answer passed on from fetch(): Hono's copy has headers of its own.
    c.header(name, value);
  }
}

/**
 * Puts `response` in place of the answer. The caller carries over what it keeps of the old one's
 * headers: clearing first stops Hono from copying the new answer to merge them in.
 */
export function replaceAnswer(c: Context, response: Response) {
  c.res = undefined;
  c.res = response;
}
