import { cpus } from "node:os";

/**
 * The share of the machine's cores that were busy since the last call, 0–1: every process on
 * it counts, PostgreSQL's too when it shares the machine, which is what the line at the door
 * must not overfill (decision 193). Null on the first call.
 */
export function machineBusyShare(): () => number | null {
  let last = totals();
  return () => {
    const next = totals();
    const total = next.total - last.total;
    const idle = next.idle - last.idle;
    last = next;
    return total > 0 ? Math.min(1, Math.max(0, 1 - idle / total)) : null;
  };
}

function totals() {
  let total = 0;
  let idle = 0;
  for (const { times } of cpus()) {
    total += times.user + times.nice + times.sys + times.idle + times.irq;
    idle += times.idle;
  }
  return { total, idle };
}
