import { FAILURES_PER_CLIENT } from "../../server/auth/sign-in-limits.ts";

/**
 * The students of a run, spread over loopback addresses so the proxy sees many clients, as a
 * college's students reach it from many phones and networks. On Linux the whole of 127.0.0.0/8
 * answers locally with no setup, so a socket bound to 127.1.0.7 is a different client to the
 * portal's rate limits than one bound to 127.1.0.8.
 *
 * Students take the addresses in turn (student s uses address s mod count), so those arriving
 * together come from different addresses and no address carries more than `perAddress`.
 */
export function spreadStudents(students: number, perAddress: number) {
  if (!Number.isInteger(perAddress) || perAddress < 1) {
    throw new Error(`students per address must be a whole number ≥ 1, got ${perAddress}`);
  }
  // Each student signs in once: with at most this many per address, even a run in which every
  // sign-in failed would stay under the per-network limit and never be refused for it.
  if (perAddress > FAILURES_PER_CLIENT.limit) {
    throw new Error(
      `at most ${FAILURES_PER_CLIENT.limit} students per address (the sign-in limit per client network), got ${perAddress}`,
    );
  }
  const count = Math.max(1, Math.ceil(students / perAddress));
  if (count > MAX_ADDRESSES)
    throw new Error(`${students} students need ${count} addresses; at most ${MAX_ADDRESSES}`);
  const addresses = Array.from({ length: count }, (_, index) => loopbackAddress(index));
  return { addresses, addressOf: (student: number) => addresses[student % count]! };
}

// 127.1.0.1 to 127.254.255.254: 127.0.0.1 is left to the portal's own calls (the sandbox's webhooks).
const HOSTS_PER_BLOCK = 254;
const MAX_ADDRESSES = 254 * 256 * HOSTS_PER_BLOCK;

/** The index-th loopback address a student may use: 127.1.0.1, 127.1.0.2, … 127.1.0.254, 127.1.1.1, … */
export function loopbackAddress(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_ADDRESSES) {
    throw new Error(`no loopback address number ${index}`);
  }
  const host = (index % HOSTS_PER_BLOCK) + 1;
  const block = Math.floor(index / HOSTS_PER_BLOCK);
  return `127.${1 + Math.floor(block / 256)}.${block % 256}.${host}`;
}
