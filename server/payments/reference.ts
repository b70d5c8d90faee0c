import { randomBytes } from "node:crypto";
import { z } from "zod";

// Crockford-style alphabet: no I, L, O or U, so a reference read aloud over the phone is unambiguous.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const RANDOM_LENGTH = 12;

/** A new payment reference such as CCE-20250115-7K3QX9M2PZ4D: dated, with 60 random bits. */
export function newPaymentReference(now: Date): string {
  const day = now.toISOString().slice(0, 10).replaceAll("-", "");
  const random = Array.from(randomBytes(RANDOM_LENGTH), (byte) => ALPHABET[byte % 32]).join("");
  return `CCE-${day}-${random}`;
}

/** Any reference we or Paystack could have issued; anything else is refused before a lookup. */
const REFERENCE_PATTERN = /^[A-Za-z0-9.=-]{1,100}$/;

/** A route parameter holding a payment reference. */
export const ReferenceParam = z.object({
  reference: z.string().regex(REFERENCE_PATTERN, "That payment reference is not valid."),
});
