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
 * one (the rest carries the header that joins them); otherwise UCS-2, 70 and 67 UTF-16 units. A
 * character is never split between parts, so an extension character or an emoji that would straddle
 * a boundary starts the next part.
 */
export function smsSegments(text: string): number {
  const gsm7 = isGsm7(text);
  const width = (character: string) =>
    gsm7 ? (extension.has(character) ? 2 : 1) : character.length;
  const [single, part] = gsm7 ? [160, 153] : [70, 67];
  if ((gsm7 ? septets(text) : text.length) <= single) return 1;
  let segments = 1;
  let used = 0;
  for (const character of text) {
    if (used + width(character) > part) {
      segments++;
      used = 0;
    }
    used += width(character);
  }
  return segments;
}
