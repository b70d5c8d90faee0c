import { existsSync, readdirSync, readFileSync } from "node:fs";

// A process's private and shared pages come from smaps_rollup (Linux 4.14 and later).
const KERNEL_GIVES_ROLLUP = existsSync("/proc/self/smaps_rollup");

export type ProcessGroupUsage = {
  /** Each process's resident set added up: the pages they share (Node's own code above all) count once per process. */
  residentBytes: number;
  /**
   * The group's resident memory with shared pages counted once: every process's private pages,
   * plus the shared pages of the process that maps the most (the processes all run the same
   * Node, so the others' shared pages are the same ones). What the portal holds of the machine's
   * memory; null where the kernel does not tell.
   */
  residentSharedOnceBytes: number | null;
  cpuMs: number;
};

/**
 * Memory and CPU time used so far (ms) of every process in a process group: the portal's
 * primary and all its workers, as the kernel sees them. Linux only (/proc); null elsewhere.
 * `memory: false` skips the memory maps, which cost the kernel a walk of each process's pages,
 * for a caller that reads the CPU at every request.
 */
export function processGroupUsage(groupId: number, { memory = true } = {}): ProcessGroupUsage | null {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return null;
  }
  let residentKiB = 0;
  let privateKiB = 0;
  let mostSharedKiB = 0;
  let ticks = 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // After the command name (which may hold spaces): state ppid pgrp … utime (12th) stime (13th).
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== groupId) continue;
      ticks += Number(fields[11]) + Number(fields[12]);
      if (!memory) continue;
      residentKiB += kibIn(readFileSync(`/proc/${entry}/status`, "utf8"), "VmRSS");
      if (KERNEL_GIVES_ROLLUP) {
        const rollup = readFileSync(`/proc/${entry}/smaps_rollup`, "utf8");
        privateKiB += kibIn(rollup, "Private_Clean") + kibIn(rollup, "Private_Dirty");
        mostSharedKiB = Math.max(mostSharedKiB, kibIn(rollup, "Shared_Clean") + kibIn(rollup, "Shared_Dirty"));
      }
    } catch {
      // The process ended while being read.
    }
  }
  // CPU time is counted in ticks of 10 ms (USER_HZ = 100 on Linux).
  return {
    residentBytes: residentKiB * 1024,
    residentSharedOnceBytes: KERNEL_GIVES_ROLLUP && memory ? (privateKiB + mostSharedKiB) * 1024 : null,
    cpuMs: ticks * 10,
  };
}

function kibIn(text: string, field: string): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0);
}

/**
 * CPU time used so far (ms) by the processes of one program on this machine (by its command
 * name, e.g. "postgres"), those that ended included: a PostgreSQL backend's time passes to the
 * postmaster's children's time when it ends. Linux only; null elsewhere or when none runs.
 */
export function programCpuMs(command: string): number | null {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return null;
  }
  let ticks = 0;
  let found = false;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) !== command) continue;
      found = true;
      // utime, stime, and the ended children's cutime and cstime (12th to 15th after the name).
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // The process ended while being read.
    }
  }
  return found ? ticks * 10 : null;
}
