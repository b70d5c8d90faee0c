/**
 * The worker thread that owns the portal's embedded PGlite (server/db/pglite-thread.ts says
 * why). It answers PostgreSQL's wire protocol, a batch of messages at a time, in the order the
 * batches came, and dumps or closes the database when asked.
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import type { PgliteModules, ThreadAnswer, ThreadRequest } from "./pglite-thread.ts";

const port = parentPort!;
const { dir, fromDump, modules } = workerData as {
  dir?: string;
  fromDump?: Uint8Array;
  modules?: PgliteModules;
};
const pglite = new PGlite({
  dataDir: dir,
  loadDataDir: fromDump && new Blob([fromDump as Uint8Array<ArrayBuffer>]),
  // Compiled once by the process (pglite-thread.ts says why).
  pgliteWasmModule: modules?.pglite,
  initdbWasmModule: modules?.initdb,
});

// One batch at a time: PGlite has a single session, and a batch's answer depends on the last.
let turn: Promise<unknown> = pglite.waitReady;
port.on("message", (request: ThreadRequest) => {
  turn = turn
    .then(() => answer(request))
    .catch((error: unknown) => reply({ id: request.id, error: String(error) }));
});

async function answer(request: ThreadRequest) {
  switch (request.kind) {
    case "protocol": {
      // PGlite answers in a fresh buffer of its own (not its memory), which the reply hands over.
      const bytes = await pglite.execProtocolRaw(request.bytes);
      return reply({ id: request.id, bytes }, [bytes.buffer as ArrayBuffer]);
    }
    case "dump": {
      const dump = await pglite.dumpDataDir("gzip");
      const bytes = new Uint8Array(await dump.arrayBuffer());
      return reply({ id: request.id, bytes }, [bytes.buffer]);
    }
    case "close":
      await pglite.close();
      reply({ id: request.id });
      // With its port closed the thread has nothing left to wait on, and ends by itself: ending
      // it from outside (Worker.terminate) while it holds WebAssembly can crash the whole process
      // now and then (nodejs/node#47748), which a test run opening hundreds of databases met.
      port.close();
      return;
  }
}

function reply(message: ThreadAnswer, transfer: ArrayBuffer[] = []) {
  port.postMessage(message, transfer);
}
