import { and, like, type SQL } from "drizzle-orm";
import { students } from "../db/schema.ts";

/** `%` and `_` typed into a search box are looked for as themselves. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, "\\$&");

/**
 * A name as the search column holds it (students.search_name, folded by the database the same
 * way): accents and punctuation dropped, lower case, single spaces. "Adébáyọ̀" and "ADEBAYO" are
 * both "adebayo"; "O'Neil" is "oneil" (decision 155).
 */
export function foldName(text: string): string {
  return text
    .normalize("NFD")
    .toLowerCase()
    .replace(/[^a-z0-9 ]/g, "")
    .replace(/ +/g, " ")
    .trim();
}

/**
 * A student whose name holds every word typed, in any order and whatever its accents and
 * apostrophes: "amina yusuf" finds Yusuf Amina Hauwa, whose middle name an officer seldom types.
 * The registry's search and the bursary's share it. Undefined when nothing of a name was typed
 * (only punctuation, say).
 */
export function nameLike(typed: string): SQL | undefined {
  const words = foldName(typed).split(" ").filter(Boolean);
  if (words.length === 0) return undefined;
  return and(...words.map((word) => like(students.searchName, `%${escapeLike(word)}%`)));
}
