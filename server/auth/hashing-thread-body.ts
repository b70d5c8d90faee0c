/**
 * The body of the password-hashing thread (hashing-thread.ts starts it): derives one key per
 * message, one at a time. Only Node's own modules, so the thread starts small and quickly.
 */
import { argon2Sync, scryptSync } from "node:crypto";
import { parentPort } from "node:worker_threads";
import type { HashJob, HashReply } from "./hashing-thread.ts";

parentPort!.on("message", ({ id, job }: { id: number; job: HashJob }) => {
  let reply: HashReply;
  try {
    reply = { id, key: derive(job) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});

function derive(job: HashJob): Buffer {
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
