import { createServer } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * Ports and process groups for the scripts that start a portal of their own (bench, capacity,
 * load): the portal takes PORT and the eight after it (API, pages, …, the Paystack sandbox).
 */

/** Signals a process group (the portal started as its leader, and its workers). */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

export function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

export function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The portal puts its inner services on PORT + 1 … PORT + 8: a base with those free too. */
export async function freePortBlock(size = 9): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = await anyFreePort();
    if (base + size > 65535) continue;
    let free = true;
    for (let offset = 1; offset < size && free; offset++) free = await canListen(base + offset);
    if (free) return base;
  }
  throw new Error(`found no ${size} free ports in a row for the portal`);
}

/** Refuses a port block someone else is using, before spending minutes on accounts. */
export async function assertPortsFree(port: number, size = 9) {
  for (let offset = 0; offset < size; offset++) {
    if (!(await canListen(port + offset)))
      throw new Error(
        `port ${port + offset} is in use; the portal needs ${port}..${port + size - 1}`,
      );
  }
}
