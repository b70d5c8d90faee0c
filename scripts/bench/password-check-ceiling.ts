import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { OWASP_ARGON2_COST } from "../../server/auth/password.ts";
import type { HashJob, HashReply } from "../../server/auth/hashing-thread.ts";

export type PasswordCheckCeiling = {
  /** Checks made, in all, and how many ran at once (one per core). */
  checks: number;
  atOnce: number;
  cpuMsPerCheck: number;
  checksPerSecond: number;
};

const HASHING_THREAD_BODY = new URL("../../server/auth/hashing-thread-body.js", import.meta.url);

/**
 * The most sign-ins a second these cores could give if they did nothing but check passwords at
 * the portal's cost: the sign-in row's baseline, as bare Node is the pages' (decision 138). The
 * hash is set by OWASP's cost and by the machine, not by the portal's code, and machines of the
 * same size differ by more than two to one in it.
 *
 * One check per core at once, each core's on a hashing thread of its own as each serving process
 * has one: two checks at once each cost more than one alone on cores that share a cache (on this
 * machine 18.4 ms against 17.0, decision 195), so a ceiling scaled up from one check at a time
 * promised sign-ins no portal could give. CPU time of this process, every thread's, which other
 * work on the machine barely moves.
 */
export async function measurePasswordCheckCeiling(
  checksPerCore = 30,
  atOnce = availableParallelism(),
): Promise<PasswordCheckCeiling> {
  const threads = Array.from({ length: atOnce }, () => new Worker(HASHING_THREAD_BODY));
  try {
    await Promise.all(threads.map((thread) => checksOn(thread, 1))); // warm-up: threads started
    const before = process.cpuUsage();
    await Promise.all(threads.map((thread) => checksOn(thread, checksPerCore)));
    const cpu = process.cpuUsage(before);
    const checks = checksPerCore * atOnce;
    const cpuMsPerCheck = (cpu.user + cpu.system) / 1000 / checks;
    return {
      checks,
      atOnce,
      cpuMsPerCheck,
      checksPerSecond: (availableParallelism() * 1000) / cpuMsPerCheck,
    };
  } finally {
    await Promise.all(threads.map((thread) => thread.terminate()));
  }
}

/** `count` argon2id derivations at the portal's cost on `thread`, one after another. */
function checksOn(thread: Worker, count: number) {
  return new Promise<void>((resolve, reject) => {
    let left = count;
    const next = () => {
      const job: HashJob = {
        scheme: "argon2id",
        password: "registration-week 2025",
        salt: randomBytes(16),
        cost: OWASP_ARGON2_COST,
        keyBytes: 32,
      };
      thread.postMessage({ id: left, job });
    };
    const onReply = (reply: HashReply) => {
      if ("error" in reply) {
        thread.off("message", onReply);
        return reject(new Error(`a password check failed: ${reply.error}`));
      }
      left -= 1;
      if (left > 0) return next();
      thread.off("message", onReply);
      resolve();
    };
    thread.on("message", onReply);
    thread.once("error", reject);
    next();
  });
}
