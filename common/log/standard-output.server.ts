import { pino, type DestinationStream } from "pino";

// One writer per process, kept on the global object: the page server's bundle carries its own
// copy of this module, and two background writers on one descriptor could interleave the pieces
// of a long write, cutting lines in two.
const SHARED = Symbol.for("portal.standardOutput");
type WithSharedOutput = typeof globalThis & { [SHARED]?: DestinationStream };

/**
 * Standard output for every log line of this process, written in the background: a line waits
 * while the previous write is under way and goes out with the others that queued behind it, so
 * a busy process makes one write for many lines instead of a blocking write each (decision 112).
 * Nothing waits at idle, and pino writes what is left when the process exits.
 */
export function standardOutput(): DestinationStream {
  const global = globalThis as WithSharedOutput;
  global[SHARED] ??= pino.destination({ dest: 1, sync: false });
  return global[SHARED];
}

/** One finished line (JSON, without its newline) on standard output, in order with the logger's. */
export function writeLine(line: string) {
  standardOutput().write(`${line}\n`);
}
