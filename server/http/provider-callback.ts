import { timingSafeEqual } from "node:crypto";
import { isLoopback } from "./client-address.ts";

/**
 * Whether a callback comes from a provider that signs nothing (Africa's Talking's STOP replies and
 * USSD menu): its address carries the secret as `?secret=`, compared in constant time. Without a
 * secret, only this machine may call (development, the USSD simulator and tests; decision 200).
 */
export function callerIsTheProvider(
  given: string | undefined,
  clientAddress: string,
  secret?: string,
) {
  if (!secret) return isLoopback(clientAddress);
  if (!given) return false;
  const [a, b] = [Buffer.from(given), Buffer.from(secret)];
  return a.length === b.length && timingSafeEqual(a, b);
}
