import { randomBytes } from "node:crypto";

/**
 * The local sandbox's key outside production. Public on purpose: developers and the browser
 * journeys drive the sandbox with it. Anyone holding it can sign webhooks the API believes.
 */
export const PUBLIC_SANDBOX_KEY = "sk_test_local_sandbox_key";

/**
 * The key the API sends to Paystack and checks webhook signatures with: the configured one;
 * without it (the sandbox stands in) the public key, except in production, where each start
 * makes a random one so no one can forge a webhook. Nothing stored depends on the key: the
 * sandbox's transactions outlive a restart (decision 129) and are still verified and paid under
 * the next start's key.
 */
export function choosePaystackSecretKey(options: { nodeEnv: string; configuredKey: string }) {
  if (options.configuredKey) return options.configuredKey;
  if (options.nodeEnv !== "production") return PUBLIC_SANDBOX_KEY;
  return `sk_test_${randomBytes(32).toString("hex")}`;
}
