import { z } from "zod";

/**
 * A web address a library card may link to: http or https only (lower-case scheme, as the
 * database's CHECK requires), so `javascript:` and `data:` addresses can never become links.
 */
export const WebAddress = z
  .url({
    protocol: /^https?$/,
    hostname: z.regexes.domain,
    error: "A library item needs an http(s) address.",
  })
  .regex(/^https?:\/\//, "A library item needs an http(s) address.");

/** One item of `GET /library/` (spec section 3). */
export const LibraryItem = z.object({
  id: z.number().int(),
  description: z.string().min(1),
  url: WebAddress,
});
export type LibraryItem = z.infer<typeof LibraryItem>;

export const LibraryList = z.object({ results: z.array(LibraryItem) });
export type LibraryList = z.infer<typeof LibraryList>;
