import { Worker } from "node:worker_threads";

/** argon2id's memory, passes and lanes (password.ts chooses them). */
export type Argon2Cost = { memoryKiB: number; passes: number; parallelism: number };

export type HashJob =
  | { scheme: "argon2id"; password: string; salt: Buffer; cost: Argon2Cost; keyBytes: number }
  | {
      scheme: "scrypt";
      password: string;
      salt: Buffer;
      cost: { N: number; r: number; p: number };
      keyBytes: number;
    };

export type HashReply = { id: number; key: Uint8Array } | { id: number; error: string };

type Waiting = { resolve: (key: Buffer) => void; reject: (error: Error) => void };

/**
 * Password hashes run one at a time on a thread of their own, one per process (decision 112).
 *
 * On libuv's pool, where Node's async argon2 runs, a burst of sign-ins held all four of its
 * threads, and a page's gzip and Content-Security-Policy digests waited in line behind them;
 * and each of those threads kept the 19 MiB of its last hash in a malloc arena of its own, so a
 * process stayed about 100 MiB larger after the first burst. Here there is one arena to keep,
 * and the pool is left to the pages. One hash at a time per process is no loss: the cluster runs
 * a process per core, and a hash is CPU-bound.
 */
class HashingThread {
  #worker: Worker | undefined;
  #waiting = new Map<number, Waiting>();
  #nextId = 1;

  derive(job: HashJob): Promise<Buffer> {
    const worker = this.#started();
    const id = this.#nextId++;
    // Keeps the process alive while a hash is owed (a script awaiting one has nothing else),
    // and lets it exit when none is.
    if (this.#waiting.size === 0) worker.ref();
    return new Promise<Buffer>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      // One form of each password whatever the keyboard typed (é as one character or two).
      worker.postMessage({ id, job: { ...job, password: job.password.normalize("NFKC") } });
    });
  }

  #started(): Worker {
    if (this.#worker) return this.#worker;
    // Not the process's own flags: they may name a script (--input-type, --import) meant for it alone.
    const worker = new Worker(new URL("./hashing-thread-body.js", import.meta.url), {
      execArgv: [],
    });
    worker.unref();
    worker.on("message", (reply: HashReply) => {
      const waiting = this.#waiting.get(reply.id);
      if (!waiting) return;
      this.#waiting.delete(reply.id);
      if (this.#waiting.size === 0) worker.unref();
      if ("error" in reply) waiting.reject(new Error(reply.error));
      else
        waiting.resolve(Buffer.from(reply.key.buffer, reply.key.byteOffset, reply.key.byteLength));
    });
    // A thread that dies fails the hashes it owed (each sign-in answers with an error, as a
    // failed hash on libuv's pool would); the next hash starts a new thread.
    const failAll = (error: Error) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      const waiting = [...this.#waiting.values()];
      this.#waiting.clear();
      for (const { reject } of waiting) reject(error);
    };
    worker.on("error", failAll);
    worker.on("exit", (code) =>
      failAll(new Error(`the password-hashing thread stopped (code ${code})`)),
    );
    this.#worker = worker;
    return worker;
  }
}

const thread = new HashingThread();

/** Derives a key from a password on the process's hashing thread. */
export const deriveKey = (job: HashJob) => thread.derive(job);
