import { randomBytes, scryptSync } from "node:crypto";

/**
 * A hash in the form the portal stored before argon2id (decision 110), `scrypt$N$r$p$salt$key`,
 * by default at a cheap N so tests of the upgrade stay fast; the stored value carries its cost.
 */
export function legacyScryptHash(password: string, cost = { N: 2 ** 10, r: 8, p: 1 }) {
  const salt = randomBytes(16);
  // scrypt needs 128·N·r bytes, more than Node's 32 MiB default at the production N=2^17.
  const key = scryptSync(password.normalize("NFKC"), salt, 32, {
    ...cost,
    maxmem: 256 * cost.N * cost.r,
  });
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64"), key.toString("base64")].join(
    "$",
  );
}
