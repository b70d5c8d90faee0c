import { readdirSync, readFileSync } from "node:fs";

/**
 * Resident memory (bytes) and CPU time used so far (ms) of every process in a process group: the
 * portal's primary and all its workers, as the kernel sees them. Linux only (/proc); null elsewhere.
 */
export function processGroupUsage(groupId: number): { residentBytes: number; cpuMs: number } | null {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return null;
  }
  let kib = 0;
  let ticks = 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // After the command name (which may hold spaces): state ppid pgrp … utime (12th) stime (13th).
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== groupId) continue;
      ticks += Number(fields[11]) + Number(fields[12]);
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // The process ended while being read.
    }
  }
  // CPU time is counted in ticks of 10 ms (USER_HZ = 100 on Linux).
  return { residentBytes: kib * 1024, cpuMs: ticks * 10 };
}
