import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { AutocannonRun } from "./autocannon-run.ts";
import { startFloorServer } from "./floor.ts";

const execFileAsync = promisify(execFile);
const runner = fileURLToPath(new URL("./autocannon-run.ts", import.meta.url));

export type AutocannonResult = {
  reqPerSec: number;
  p50: number;
  p99: number;
  ok: number;
  failed: number;
};

/**
 * One autocannon measurement in a child process, so the load it generates is not counted against
 * the process measuring, as a load generator on another machine would not be.
 */
export async function runAutocannon(run: AutocannonRun): Promise<AutocannonResult> {
  const dir = await mkdtemp(path.join(tmpdir(), "autocannon-"));
  try {
    // A file, not an argument: a sign-in run carries thousands of request bodies.
    const config = path.join(dir, "run.json");
    await writeFile(config, JSON.stringify(run));
    const { stdout } = await execFileAsync(process.execPath, [runner, config], {
      maxBuffer: 64 * 2 ** 20,
    });
    const summary = JSON.parse(stdout) as {
      requests: { average: number };
      latency: { p50: number; p99: number };
      "2xx": number;
      non2xx: number;
      errors: number;
      timeouts: number;
    };
    return {
      reqPerSec: summary.requests.average,
      p50: summary.latency.p50,
      p99: summary.latency.p99,
      ok: summary["2xx"],
      failed: summary.non2xx + summary.errors + summary.timeouts,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Requests a second a bare Node `http` hello-world answers on this machine right now: the
 * baseline every capacity figure is printed beside. The machine's speed changes from one day
 * (or hour) to the next; a share of this figure is what compares across runs.
 */
export async function measureBareNode(
  seconds: number,
  connections = 20,
): Promise<AutocannonResult> {
  const floor = await startFloorServer();
  try {
    return await runAutocannon({ url: floor.url, connections, seconds });
  } finally {
    await floor.close();
  }
}
