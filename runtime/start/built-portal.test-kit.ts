import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePortBlock } from "../../scripts/bench/local-ports.ts";

const root = path.resolve(import.meta.dirname, "../..");

export type BuiltPortal = {
  /** The proxy students reach; the API listens on `port + 1`, the page server on `port + 2`. */
  port: number;
  origin: string;
  stop(): Promise<void>;
};

/**
 * `npm start`'s serving process on PGlite, from the built pages, on a free block of ports, for a
 * test of what a browser meets: started in `beforeAll` (give it two minutes), stopped in
 * `afterAll`. `env` adds to the test's own settings (say `WAITING_LINE: "off"`). Refuses with
 * everything the portal printed if it stops before it is ready.
 */
export async function startBuiltPortal(
  name: string,
  env: Record<string, string> = {},
): Promise<BuiltPortal> {
  const port = await freePortBlock(9);
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), `portal-${name}-`));
  const portal = spawn(process.execPath, [path.join(root, "runtime/start.ts")], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      PUBLIC_ORIGIN: origin,
      NODE_ENV: "test",
      LOG_LEVEL: "error",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    portal.stdout!.on("data", (chunk: Buffer) => {
      output.push(chunk.toString());
      if (chunk.toString().includes("Portal ready")) resolve();
    });
    portal.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    portal.once("exit", (code) =>
      reject(new Error(`the portal exited with ${code}:\n${output.join("")}`)),
    );
  });
  return {
    port,
    origin,
    async stop() {
      if (portal.exitCode === null && portal.signalCode === null) {
        portal.removeAllListeners("exit");
        await new Promise((resolve) => {
          portal.once("exit", resolve);
          portal.kill("SIGTERM");
        });
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
