/**
 * Bundles the proxy's worker entry (proxy/worker.ts) into one ES module for workerd or Cloudflare
 * Workers (decision 127): `npm run build:worker` writes dist/worker/proxy.mjs.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The worker as one module's source. Built for the browser platform with workerd's export
 * conditions: a Node built-in anywhere in the proxy's imports fails the build instead of
 * failing on the edge.
 */
export async function bundleProxyWorker(): Promise<string> {
  const result = await build({
    entryPoints: [path.join(root, "proxy/worker.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    target: "es2024",
    minify: false,
    legalComments: "none",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

if (import.meta.main) {
  const out = path.join(root, "dist/worker/proxy.mjs");
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, await bundleProxyWorker());
  console.log(`Wrote ${path.relative(root, out)}`);
}
