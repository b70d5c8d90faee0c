/**
 * Adds lock entries for optional platform bindings the registry does not serve, so `npm ci`
 * accepts the lock (docs/decisions/007). Run after an `npm install` that rewrote the lock:
 *   node scripts/lock-missing-bindings.ts
 */
import { readFileSync, writeFileSync } from "node:fs";

type LockEntry = {
  version: string;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
};

const PLATFORMS: Record<string, Pick<LockEntry, "os" | "cpu" | "libc">> = {
  "android-arm64": { os: ["android"], cpu: ["arm64"] },
  "darwin-arm64": { os: ["darwin"], cpu: ["arm64"] },
  "darwin-x64": { os: ["darwin"], cpu: ["x64"] },
  "linux-arm64-gnu": { os: ["linux"], cpu: ["arm64"], libc: ["glibc"] },
  "linux-arm64-musl": { os: ["linux"], cpu: ["arm64"], libc: ["musl"] },
  "wasm32-wasi": { cpu: ["wasm32"] },
  "win32-arm64-msvc": { os: ["win32"], cpu: ["arm64"] },
  "win32-x64-msvc": { os: ["win32"], cpu: ["x64"] },
};

const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as {
  packages: Record<string, LockEntry>;
};
const binding = lock.packages["node_modules/@astrojs/compiler-binding"];
const added: string[] = [];
for (const [name, version] of Object.entries(binding?.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  const platform = PLATFORMS[name.split("compiler-binding-")[1] ?? ""];
  if (lock.packages[key] || !platform) continue;
  lock.packages[key] = { version, optional: true, ...platform };
  added.push(name);
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1)),
);
writeFileSync("package-lock.json", `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `Added: ${added.join(", ")}` : "Nothing to add.");
