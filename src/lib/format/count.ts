/**
 * A count with its noun in the right number: countOf(1, "complaint") is "1 complaint",
 * countOf(2, "faculty", "faculties") is "2 faculties".
 */
export function countOf(count: number, one: string, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/** The singular of a list's plural noun, for the regular English ones the staff lists use. */
export function singularOf(plural: string) {
  if (plural.endsWith("ies")) return `${plural.slice(0, -3)}y`;
  return plural.endsWith("s") ? plural.slice(0, -1) : plural;
}

/** "is" or "are", "moves" or "move": a verb that agrees with a count. */
export const agree = (count: number, one: string, many: string) => (count === 1 ? one : many);
