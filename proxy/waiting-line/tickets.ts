/**
 * The two cookies of the line at the door (decision 193), signed with HMAC-SHA-256 so that any
 * proxy holding the key can read them and no browser can make or change one:
 *
 * - the **ticket**: a place in line, the number the database handed out on arrival. Numbers
 *   are given in order of arrival across every proxy, so the number is the place; refreshing
 *   keeps it, a second tab shares it, and a made-up number fails the signature.
 * - the **pass**: admission, for long enough to sign in. It names the ticket it was exchanged
 *   for (0 when the door was open and no line stood), so that ticket cannot be exchanged again.
 *
 * Web Crypto only: the proxy also runs on edge runtimes.
 */

/** A ticket older than this is spent: its holder joins again, at the back (they had left). */
export const TICKET_LIFETIME_SECONDS = 2 * 60 * 60;
/** Long enough to read the sign-in page, type a phone number and password, and try twice. */
export const PASS_LIFETIME_SECONDS = 15 * 60;

/**
 * `seenThrough`: how far the line had been admitted when a proxy last showed this ticket its
 * place. Proxies read the line a second apart; carried in the signed ticket, what one proxy saw
 * reaches the next, so a place shown never goes back up.
 */
export type Ticket = { number: number; issuedAt: number; seenThrough: number };
export type Pass = { ticket: number; expiresAt: number };

const encoder = new TextEncoder();

export type TicketSigner = {
  ticket(ticket: Ticket): Promise<string>;
  readTicket(value: string | undefined, nowSeconds: number): Promise<Ticket | null>;
  pass(ticket: number, nowSeconds: number): Promise<string>;
  readPass(value: string | undefined, nowSeconds: number): Promise<Pass | null>;
};

/**
 * Signs and reads the line's cookies under `secret`. Every proxy of one portal must be given
 * the same secret, or a ticket from one is refused by the next (its holder would join again).
 */
export async function ticketSigner(secret: string): Promise<TicketSigner> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(`waiting-line:${secret}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  const sign = async (payload: string) =>
    `${payload}.${toBase64Url(await crypto.subtle.sign("HMAC", key, encoder.encode(payload)))}`;

  /** The numbers of a signed value of this kind, or null if anything about it is wrong. */
  const read = async (kind: "t" | "p", value: string | undefined) => {
    const match = /^([tp](?:\.\d{1,15}){2,3})\.([A-Za-z0-9_-]{43})$/.exec(value ?? "");
    if (!match) return null;
    const [payloadKind, ...numbers] = match[1]!.split(".");
    if (payloadKind !== kind || numbers.length !== (kind === "t" ? 3 : 2)) return null;
    const signature = fromBase64Url(match[2]!);
    const genuine =
      signature !== null &&
      (await crypto.subtle.verify("HMAC", key, signature, encoder.encode(match[1]!)));
    return genuine ? numbers.map(Number) : null;
  };

  return {
    ticket: ({ number, issuedAt, seenThrough }) =>
      sign(`t.${number}.${Math.floor(issuedAt)}.${seenThrough}`),
    async readTicket(value, nowSeconds) {
      const numbers = await read("t", value);
      if (!numbers) return null;
      const [number, issuedAt, seenThrough] = numbers as [number, number, number];
      const fresh = issuedAt <= nowSeconds + 60 && nowSeconds - issuedAt < TICKET_LIFETIME_SECONDS;
      return number > 0 && fresh ? { number, issuedAt, seenThrough } : null;
    },
    pass: (ticket, nowSeconds) =>
      sign(`p.${ticket}.${Math.floor(nowSeconds) + PASS_LIFETIME_SECONDS}`),
    async readPass(value, nowSeconds) {
      const numbers = await read("p", value);
      if (!numbers) return null;
      const [ticket, expiresAt] = numbers as [number, number];
      return expiresAt > nowSeconds && expiresAt <= nowSeconds + PASS_LIFETIME_SECONDS + 60
        ? { ticket, expiresAt }
        : null;
    },
  };
}

function toBase64Url(bytes: ArrayBuffer) {
  let text = "";
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (character) => character.charCodeAt(0));
  } catch {
    return null;
  }
}
