import { z } from "zod";
import { IdParam, Paged } from "../validation/lists.ts";
import { WebAddress } from "./library-item.ts";

const description = z
  .string({ error: "Enter a description of the item." })
  .trim()
  .min(1, "Enter a description of the item.")
  .max(200, "Keep the description to 200 characters or fewer.");

// Trimmed first, so an address pasted with a space is judged by what it is.
const url = z
  .string({ error: "A library item needs an http(s) address." })
  .trim()
  .max(2000, "That address is too long (2000 characters at most).")
  .pipe(WebAddress);

/** POST /staff/library: a new item, shown to students at once. */
export const NewLibraryItemRequest = z.object({ description, url });

/** PATCH /staff/library/{id}: any of description, address and whether students see it. */
export const LibraryItemChange = z
  .object({
    description: description.optional(),
    url: url.optional(),
    hidden: z
      .boolean({ error: "Say whether the item is hidden (true) or shown (false)." })
      .optional(),
  })
  .refine((change) => Object.values(change).some((value) => value !== undefined), {
    message: "Nothing to change.",
  });
export type LibraryItemChange = z.infer<typeof LibraryItemChange>;

export const StaffLibraryItem = z.object({
  id: z.number(),
  description: z.string(),
  url: z.string(),
  hidden: z.boolean(),
  updated_at: z.string(),
});
export type StaffLibraryItem = z.infer<typeof StaffLibraryItem>;

export const LIBRARY_PAGE_SIZE = 25;

/** GET /staff/library: every item, hidden ones too, in the order students see them. */
export const StaffLibraryPage = Paged(StaffLibraryItem);
export type StaffLibraryPage = z.infer<typeof StaffLibraryPage>;

export const LibraryItemParam = IdParam("There is no such library item.");
