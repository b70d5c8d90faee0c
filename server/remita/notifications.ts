import { z } from "zod";
import type { GatewayNotification, PaymentAtGateway } from "../payments/gateway.ts";

// Remita's payment notification: a JSON array of payments POSTed to the one URL on the merchant's
// profile, with no signature, token or secret (decision 188). Nothing in it is believed: each
// element only names a payment, by our order id (`orderRef`, also `orderId`) and its RRR, which
// the webhook then asks Remita about itself (decision 187).

/** At most this many payments are taken from one notification: Remita sends a handful. */
export const MAX_CLAIMS = 50;

const Text = z.union([z.string(), z.number()]).transform((value) => String(value).trim());
const Item = z.object({
  rrr: Text.optional(),
  orderRef: Text.optional(),
  orderId: Text.optional(),
});

/**
 * The payments a Remita notification names, as claims to confirm; `ignored` for a body that names
 * none (not JSON, not an array of payments). Never null and never throws: there is no signature
 * to fail, and whatever arrives is answered OK so Remita does not resend it.
 */
export function readRemitaNotification(rawBody: string): GatewayNotification {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return { kind: "ignored", event: null };
  }
  // One payment sent alone, not in an array, is read the same.
  const items = Array.isArray(body) ? body : [body];
  const claims = new Map<string, PaymentAtGateway>();
  for (const raw of items) {
    const item = Item.safeParse(raw);
    if (!item.success) continue;
    const reference = item.data.orderRef || item.data.orderId || "";
    const rrr = item.data.rrr || null;
    if (!reference && !rrr) continue;
    if (reference.length > 100 || (rrr && rrr.length > 40)) continue;
    claims.set(`${reference} ${rrr}`, { reference, gatewayReference: rrr });
    if (claims.size >= MAX_CLAIMS) break;
  }
  if (!claims.size) return { kind: "ignored", event: null };
  return { kind: "claims", payments: [...claims.values()] };
}
