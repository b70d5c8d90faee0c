import { pino, type DestinationStream } from "pino";

let shared: DestinationStream | undefined;

/**
 * Standard output for every log line of this process, written in the background: a line waits
 * while the previous write is under way and goes out with the others that queued behind it, so
 * a busy process makes one write for many lines instead of a blocking write each (decision 112).
 * Nothing waits at idle, and pino writes what is left when the process exits.
 */
export function standardOutput(): DestinationStream {
  shared ??= pino.destination({ dest: 1, sync: false });
  return shared;
}

/** One finished line (JSON, without its newline) on standard output, in order with the logger's. */
export function writeLine(line: string) {
  standardOutput().write(`${line}\n`);
}
