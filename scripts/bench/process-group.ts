import { existsSync, readdirSync, readFileSync } from "node:fs";

// A process's private and shared pages come from smaps_rollup (Linux 4.14 and later).
const KERNEL_GIVES_ROLLUP = existsSync("/proc/self/smaps_rollup");
// CPU time in /proc is counted in ticks of 10 ms (USER_HZ = 100 on Linux).
const MS_PER_TICK = 10;

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

/** The largest of each memory figure seen while sampling; the two may come from different samples. */
export type PeakMemory = Pick<ProcessGroupUsage, "residentBytes" | "residentSharedOnceBytes">;

export function largerMemory(peak: PeakMemory | null, now: PeakMemory): PeakMemory {
  const sharedOnce = (a: number | null, b: number | null) =>
    a === null || b === null ? null : Math.max(a, b);
  return peak
    ? {
        residentBytes: Math.max(peak.residentBytes, now.residentBytes),
        residentSharedOnceBytes: sharedOnce(
          peak.residentSharedOnceBytes,
          now.residentSharedOnceBytes,
        ),
      }
    : { residentBytes: now.residentBytes, residentSharedOnceBytes: now.residentSharedOnceBytes };
}

/** A running process as /proc/PID/stat gives it: its command name, and the fields after it. */
type ProcessStat = { pid: string; command: string; fields: string[] };

/**
 * Every process on the machine, read from /proc; a process that ends while being read is left
 * out. null off Linux.
 */
function runningProcesses(): ProcessStat[] | null {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return null;
  }
  const processes: ProcessStat[] = [];
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // The command name is in parentheses and may hold spaces; the fields after it are
      // state ppid pgrp … utime (12th) stime (13th) cutime (14th) cstime (15th).
      const command = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      processes.push({ pid, command, fields: stat.slice(stat.lastIndexOf(")") + 2).split(" ") });
    } catch {
      // The process ended while being read.
    }
  }
  return processes;
}

/**
 * Memory and CPU time used so far (ms) of every process in a process group: the portal's
 * primary and all its workers, as the kernel sees them. Linux only (/proc); null elsewhere.
 * `memory: false` skips the memory maps, which cost the kernel a walk of each process's pages,
 * for a caller that reads the CPU at every request.
 */
export function processGroupUsage(
  groupId: number,
  { memory = true } = {},
): ProcessGroupUsage | null {
  const processes = runningProcesses();
  if (!processes) return null;
  let residentKiB = 0;
  let privateKiB = 0;
  let mostSharedKiB = 0;
  let ticks = 0;
  for (const { pid, fields } of processes) {
    if (Number(fields[2]) !== groupId) continue;
    ticks += Number(fields[11]) + Number(fields[12]);
    if (!memory) continue;
    try {
      residentKiB += kibIn(readFileSync(`/proc/${pid}/status`, "utf8"), "VmRSS");
      if (KERNEL_GIVES_ROLLUP) {
        const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
        privateKiB += kibIn(rollup, "Private_Clean") + kibIn(rollup, "Private_Dirty");
        mostSharedKiB = Math.max(
          mostSharedKiB,
          kibIn(rollup, "Shared_Clean") + kibIn(rollup, "Shared_Dirty"),
        );
      }
    } catch {
      // The process ended while being read.
    }
  }
  return {
    residentBytes: residentKiB * 1024,
    residentSharedOnceBytes:
      KERNEL_GIVES_ROLLUP && memory ? (privateKiB + mostSharedKiB) * 1024 : null,
    cpuMs: ticks * MS_PER_TICK,
  };
}

/**
 * CPU time used so far (ms) by the processes of one program on this machine (by its command
 * name, e.g. "postgres"), those that ended included: a PostgreSQL backend's time passes to the
 * postmaster's children's time when it ends. Linux only; null elsewhere or when none runs.
 */
export function programCpuMs(command: string): number | null {
  const processes = runningProcesses()?.filter((process) => process.command === command);
  if (!processes?.length) return null;
  const ticks = processes.reduce(
    (sum, { fields }) =>
      sum + Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]),
    0,
  );
  return ticks * MS_PER_TICK;
}

function kibIn(text: string, field: string): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0);
}
