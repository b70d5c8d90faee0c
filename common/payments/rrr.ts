/**
 * An RRR as students copy it to a bank teller or Remita's page: twelve digits in groups of four
 * ("1400-0775-2615"), which are read aloud and typed without losing one. Anything else is shown
 * as it is.
 */
export function groupedRrr(rrr: string): string {
  return /^\d{12}$/.test(rrr) ? (rrr.match(/\d{4}/g) ?? []).join("-") : rrr;
}
