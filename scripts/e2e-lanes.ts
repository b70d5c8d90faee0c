/**
 * The browser journeys in their two lanes at once (decision 171): each lane is a `playwright test`
 * run with a portal and an embedded database of its own, so the two never share a student, a
 * session or an authenticator code, and the machine's two cores each drive one Chromium instead of
 * one driving both. Arguments go to both runs (e.g. `--grep refund`); each line says its lane.
 * Fails when either lane fails.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const LANES = [
  { name: "students", port: 4400 },
  { name: "staff", port: 4420 },
] as const;

const playwright = fileURLToPath(import.meta.resolve("@playwright/test/cli"));
// Another port for both lanes (E2E_PORT) keeps them 20 apart: a portal uses its port and the next eight.
const basePort = process.env.E2E_PORT ? Number(process.env.E2E_PORT) : LANES[0].port;

function runLane(lane: (typeof LANES)[number]): Promise<number> {
  const port = basePort + (lane.port - LANES[0].port);
  const child = spawn(process.execPath, [playwright, "test", ...process.argv.slice(2)], {
    // The portal each lane starts (`node runtime/start.ts`) runs on this Node, whatever the PATH.
    env: {
      ...process.env,
      E2E_LANE: lane.name,
      E2E_PORT: String(port),
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => console.log(`[${lane.name}] ${line}`));
  }
  return new Promise((resolve) => child.on("exit", (code) => resolve(code ?? 1)));
}

const started = Date.now();
const codes = await Promise.all(LANES.map(runLane));
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
LANES.forEach((lane, i) =>
  console.log(`${lane.name} lane: ${codes[i] === 0 ? "passed" : `failed (exit code ${codes[i]})`}`),
);
console.log(`Both lanes took ${minutes} minutes.`);
process.exit(codes.every((code) => code === 0) ? 0 : 1);
