/**
 * The embedded PGlite on a worker thread of its own, spoken to through node-postgres.
 *
 * PGlite runs PostgreSQL inside the JavaScript thread that calls it: in the one process that
 * owns the folder, every query's planning and execution took turns with rendering pages and
 * answering the API on the same core, and the machine's other core sat idle (decision 112).
 * Here the database runs on a second thread, and the serving thread talks to it the way it talks
 * to a PostgreSQL server: node-postgres writes the wire protocol to a stream, which hands each
 * batch of messages to the thread and reads back the answer bytes. So the embedded database and
 * the server database go through the same driver, the same result types and the same pool code.
 *
 * PGlite has one session: the pool holds one connection, so a transaction keeps the database to
 * itself until it ends, as it does inside PGlite.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Duplex } from "node:stream";
import { Worker } from "node:worker_threads";
import pg from "pg";

type ThreadAsk = { kind: "protocol"; bytes: Uint8Array } | { kind: "dump" } | { kind: "close" };
export type ThreadRequest = ThreadAsk & { id: number };
export type ThreadAnswer = { id: number; bytes?: Uint8Array; error?: string };

export type PgliteThread = {
  /** A pool of the one connection there is, for node-postgres and Drizzle. */
  pool: pg.Pool;
  /** PGlite's dump of its data folder (a gzipped tar), as `dumpDataDir` gives it. */
  dump(): Promise<Uint8Array>;
  close(): Promise<void>;
};

export type PgliteThreadOptions = {
  /**
   * Told once if the thread stops without being closed (PGlite failed): every query after it
   * fails, so a serving process would rather stop and be started again.
   */
  onLost?: (error: Error) => void;
  /**
   * A dump of a data folder (`dump()`'s gzipped tar, or a plain tar) to start from instead of an
   * empty database: PGlite then skips initdb, most of a fresh database's start-up.
   */
  fromDump?: Uint8Array;
};

const THREAD_END_GRACE_MS = 5_000;
const WORKER = new URL("./pglite-thread-worker.ts", import.meta.url);

/** PGlite's two WebAssembly programs, compiled once for the process and handed to each thread. */
export type PgliteModules = { pglite: WebAssembly.Module; initdb: WebAssembly.Module };
let compiled: Promise<PgliteModules> | undefined;

/**
 * Compiling PGlite's WebAssembly anew for every thread, and freeing the code when the thread
 * ends, is what crashes V8 now and then (a failed check in its JIT page bookkeeping, nodejs/node
 * #64500), which a test run opening hundreds of databases met. Compiled once here and kept, the
 * code is shared by every thread and never freed; each thread also starts a few seconds sooner.
 */
export function pgliteModules(): Promise<PgliteModules> {
  compiled ??= (async () => {
    // Beside the package's entry point, where PGlite itself reads them from.
    const dist = pathToFileURL(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
    const compile = async (file: string) =>
      WebAssembly.compile(await readFile(new URL(file, dist)));
    const [pglite, initdb] = await Promise.all([
      compile("./pglite.wasm"),
      compile("./initdb.wasm"),
    ]);
    return { pglite, initdb };
  })();
  return compiled;
}

/** Starts PGlite on a worker thread, in `dir` or in memory, and answers once it is open. */
export async function startPgliteThread(
  dir?: string,
  options: PgliteThreadOptions = {},
): Promise<PgliteThread> {
  const modules = await pgliteModules();
  return connectPgliteThread(
    new Worker(WORKER, { workerData: { dir, fromDump: options.fromDump, modules } }),
    options,
  );
}

/** Speaks to a thread running pglite-thread-worker.ts (a test stops one as a crash would). */
export async function connectPgliteThread(
  worker: Worker,
  options: PgliteThreadOptions = {},
): Promise<PgliteThread> {
  const waiting = new Map<
    number,
    { resolve(answer: ThreadAnswer): void; reject(error: Error): void }
  >();
  let lastId = 0;
  let failure: Error | undefined;
  let closing: Promise<void> | undefined;
  worker.on("message", (answer: ThreadAnswer) => {
    const request = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (answer.error !== undefined) request?.reject(new Error(answer.error));
    else request?.resolve(answer);
  });
  const fail = (error: Error) => {
    if (failure) return;
    failure = error;
    for (const request of waiting.values()) request.reject(error);
    waiting.clear();
    if (!closing) options.onLost?.(error);
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the database thread stopped (exit code ${code})`)));

  function ask(request: ThreadAsk, transfer: ArrayBuffer[] = []): Promise<ThreadAnswer> {
    if (failure) return Promise.reject(failure);
    const id = ++lastId;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id }, transfer);
    });
  }
  const exchange = async (bytes: Uint8Array) =>
    (await ask({ kind: "protocol", bytes }, [bytes.buffer as ArrayBuffer])).bytes!;

  const pool = new pg.Pool({
    max: 1,
    idleTimeoutMillis: 0,
    stream: () => new ProtocolStream(exchange),
  });
  async function close() {
    await pool.end();
    // A thread that already stopped has nothing left to close.
    if (failure) return;
    const ended = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    try {
      await ask({ kind: "close" });
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    // The thread ends by itself once PGlite is closed (pglite-thread-worker.ts says why it is not
    // stopped from here); one that does not within a few seconds is stopped after all.
    const stuck = setTimeout(() => void worker.terminate(), THREAD_END_GRACE_MS);
    await ended;
    clearTimeout(stuck);
  }
  try {
    // The first connection opens the database: an error in the folder shows here, not on a page.
    const client = await pool.connect();
    client.release();
  } catch (error) {
    closing = worker.terminate().then(() => undefined);
    throw error;
  }
  return {
    pool,
    dump: async () => (await ask({ kind: "dump" })).bytes!,
    close: () => (closing ??= close()),
  };
}

// What a server answers a startup message when it asks for no password: AuthenticationOk, then
// ReadyForQuery (idle). PGlite's session is already open, so the stream answers for it.
const STARTUP_ANSWER = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0, 0x5a, 0, 0, 0, 5, 0x49]);

// Sent, its answer unread, before a new connection's startup is answered: ends a transaction the
// last connection left open, then drops its prepared statements and settings (two queries:
// DISCARD ALL refuses to run inside a transaction, which one Query of both would be).
const NEW_SESSION = Buffer.concat([simpleQuery("ROLLBACK"), simpleQuery("DISCARD ALL")]);

function simpleQuery(text: string) {
  const message = Buffer.alloc(1 + 4 + Buffer.byteLength(text) + 1);
  message[0] = 0x51;
  message.writeInt32BE(message.length - 1, 1);
  message.write(text, 5);
  return message;
}

// The type bytes of the messages that end a batch: Sync (S), a simple Query (Q) and Flush (H),
// which the client waits on, and Terminate (X), after which it sends nothing more.
const ANSWER_AWAITED = new Set([0x53, 0x51, 0x48, 0x58]);

/**
 * What node-postgres takes for a socket: what it writes is kept until a message it waits on
 * (Sync, Query, Flush), then the batch goes to the database thread in one exchange, and the
 * answer is read back as if it came from a server.
 */
class ProtocolStream extends Duplex {
  #started = false;
  #pending: Buffer[] = [];
  // Exchanges run one after another, so answers come back in the order they were asked.
  #turn: Promise<void> = Promise.resolve();
  readonly #exchange: (bytes: Uint8Array) => Promise<Uint8Array>;

  constructor(exchange: (bytes: Uint8Array) => Promise<Uint8Array>) {
    super();
    this.#exchange = exchange;
  }

  connect() {
    process.nextTick(() => this.emit("connect"));
    return this;
  }
  setNoDelay() {
    return this;
  }
  setKeepAlive() {
    return this;
  }
  ref() {
    return this;
  }
  unref() {
    return this;
  }

  override _read() {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    if (!this.#started) {
      // The startup message, the only one without a type byte. A new connection is a new
      // session: whatever the last one left open or prepared in PGlite's only session goes.
      this.#started = true;
      this.#send(NEW_SESSION, () => this.push(STARTUP_ANSWER));
      return done();
    }
    this.#pending.push(chunk);
    if (awaitsAnswer(chunk)) {
      const batch = this.#pending.length === 1 ? chunk : Buffer.concat(this.#pending);
      this.#pending = [];
      // Terminate needs no answer; PGlite's session stays open for the next connection.
      if (batch.length === 5 && batch[0] === 0x58) return done();
      this.#send(batch, (answer) => this.push(answer));
    }
    done();
  }

  #send(batch: Buffer, then: (answer: Buffer) => void) {
    // A copy the thread can take over: node-postgres's buffers may share a pool.
    const bytes = new Uint8Array(batch.byteLength);
    bytes.set(batch);
    this.#turn = this.#turn
      .then(async () => {
        const answer = await this.#exchange(bytes);
        then(Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength));
      })
      .catch((error: Error) => {
        this.destroy(error);
      });
  }

  override _final(done: (error?: Error | null) => void) {
    this.push(null);
    done();
  }
}

/** Whether `chunk`, one or more whole messages as node-postgres writes them, ends with one it awaits an answer to. */
function awaitsAnswer(chunk: Buffer): boolean {
  let offset = 0;
  let last = -1;
  while (offset + 5 <= chunk.length) {
    last = chunk[offset]!;
    offset += 1 + chunk.readInt32BE(offset + 1);
  }
  return ANSWER_AWAITED.has(last);
}
