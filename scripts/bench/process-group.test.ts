import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { largerMemory, processGroupUsage, programCpuMs } from "./process-group.ts";

const onLinux = process.platform === "linux";

describe.runIf(onLinux)("process group usage", () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  /** A process group of its own, as the load tool starts the portal: a leader that spins for 300 ms of CPU, and a child of it. */
  async function spinningGroup() {
    const script = `require("node:child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "inherit" });
      while (process.cpuUsage().user < 300000); console.log("spun"); setInterval(() => {}, 1000);`;
    const leader = spawn(process.execPath, ["-e", script], {
      detached: true,
      stdio: ["ignore", "pipe", "inherit"],
    });
    stop = () => process.kill(-leader.pid!, "SIGKILL");
    await once(leader.stdout!, "data");
    return leader.pid!;
  }

  it("adds up the group's processes, and counts the pages they share once in the second figure", async () => {
    const group = await spinningGroup();
    const usage = processGroupUsage(group)!;
    expect(usage.cpuMs).toBeGreaterThanOrEqual(200);
    // Two Node processes: each alone is well over 20 MiB, and they share Node's own code.
    expect(usage.residentBytes).toBeGreaterThan(40 * 2 ** 20);
    expect(usage.residentSharedOnceBytes).not.toBeNull();
    expect(usage.residentSharedOnceBytes!).toBeLessThan(usage.residentBytes);
    expect(usage.residentSharedOnceBytes!).toBeGreaterThan(usage.residentBytes / 3);
  });

  it("reads only the CPU when asked to leave the memory out", async () => {
    const group = await spinningGroup();
    const usage = processGroupUsage(group, { memory: false })!;
    expect(usage.cpuMs).toBeGreaterThanOrEqual(200);
    expect(usage.residentSharedOnceBytes).toBeNull();
  });

  it("gives a program's CPU by its command name, and null for a program that is not running", () => {
    // This test's own command name, as the kernel has it (Node names its main thread).
    const stat = readFileSync("/proc/self/stat", "utf8");
    const ownCommand = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    expect(programCpuMs(ownCommand)).toBeGreaterThan(0);
    expect(programCpuMs("no-such-program-here")).toBeNull();
  });
});

describe("largerMemory", () => {
  it("keeps the largest of each memory figure, whichever sample it came from, and no shared-once figure once one sample lacked it", () => {
    const first = largerMemory(null, { residentBytes: 900, residentSharedOnceBytes: 700 });
    expect(largerMemory(first, { residentBytes: 850, residentSharedOnceBytes: 720 })).toEqual({
      residentBytes: 900,
      residentSharedOnceBytes: 720,
    });
    expect(largerMemory(first, { residentBytes: 950, residentSharedOnceBytes: null })).toEqual({
      residentBytes: 950,
      residentSharedOnceBytes: null,
    });
  });
});
