/**
 * The GSM 03.38 default alphabet, which every phone reads: a message written only in it packs 160
 * characters into one SMS; a single character outside it (₦, an em dash, curly quotes, most
 * emoji) sends the whole message as UCS-2, 70 characters a segment.
 */
const BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
/** Reached through the escape character: each takes two of a segment's 160 septets. */
const EXTENSION = "^{}\\[~]|€\f";

const basic = new Set(BASIC);
const extension = new Set(EXTENSION);

/** Whether every character of `text` is in the GSM-7 alphabet (basic or extension table). */
export function isGsm7(text: string): boolean {
  for (const character of text)
    if (!basic.has(character) && !extension.has(character)) return false;
  return true;
}

/** How many 7-bit septets `text` takes in GSM-7 (extension characters count two). */
export function septets(text: string): number {
  let count = 0;
  for (const character of text) count += extension.has(character) ? 2 : 1;
  return count;
}

/**
 * How many SMS segments `text` is sent as: in GSM-7 160 septets fit one, 153 each part of a longer
 * one (the rest carries the header that joins them); otherwise UCS-2, 70 and 67 UTF-16 units.
 */
export function smsSegments(text: string): number {
  const [length, single, part] = isGsm7(text) ? [septets(text), 160, 153] : [text.length, 70, 67];
  if (length <= single) return 1;
  return Math.ceil(length / part);
}
