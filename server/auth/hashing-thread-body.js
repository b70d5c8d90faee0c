/**
 * The body of the password-hashing thread (hashing-thread.ts starts it): derives one key per
 * message, one at a time. Plain JavaScript and only Node's own modules, so the thread starts
 * small and quickly: a TypeScript body loads Node's type stripper into the thread, 17 MiB of a
 * serving process's memory for one file (decision 112).
 */
import { argon2Sync, scryptSync } from "node:crypto";
import { parentPort } from "node:worker_threads";

/** @typedef {import("./hashing-thread.ts").HashJob} HashJob */
/** @typedef {import("./hashing-thread.ts").HashReply} HashReply */

parentPort?.on("message", (/** @type {{ id: number; job: HashJob }} */ { id, job }) => {
  /** @type {HashReply} */
  let reply;
  try {
    reply = { id, key: derive(job) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});

/** @param {HashJob} job @returns {Buffer} */
function derive(job) {
  if (job.scheme === "argon2id") {
    return argon2Sync("argon2id", {
      message: job.password,
      nonce: job.salt,
      memory: job.cost.memoryKiB,
      passes: job.cost.passes,
      parallelism: job.cost.parallelism,
      tagLength: job.keyBytes,
    });
  }
  // scrypt needs 128·N·r bytes; allow that plus headroom instead of Node's 32 MiB default.
  const maxmem = 128 * job.cost.N * job.cost.r * 2;
  return scryptSync(job.password, job.salt, job.keyBytes, { ...job.cost, maxmem });
}
