import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it, onTestFinished } from "vitest";

// The proxy runs on workerd and Cloudflare Workers as well as on Node (decision 127), where
// `node:` modules do not exist. This check reads every import of the proxy's own files and of
// the project files they import, however deep; packages (hono, zod) are the worker build's to check.

const NODE_BUILT_INS = new Set(builtinModules);

type NodeImport = { file: string; imports: string };

/** Imports of Node built-ins (`node:fs`, or `fs` by its bare name) reachable from `entries`. */
function nodeImportsReachableFrom(entries: string[], root: string): NodeImport[] {
  const found: NodeImport[] = [];
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    // Every form counts: import, import type, export … from, import(), require().
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (specifier.startsWith("node:") || NODE_BUILT_INS.has(specifier)) {
        found.push({ file: path.relative(root, file), imports: specifier });
      } else if (specifier.startsWith(".")) {
        queue.push(path.resolve(path.dirname(file), specifier));
      }
    }
  }
  return found;
}

function proxySourceFiles(proxyDir: string) {
  return readdirSync(proxyDir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .map((name) => path.join(proxyDir, name));
}

describe("the proxy imports nothing that exists only on Node", () => {
  it("in proxy/ and every project file it imports", () => {
    const root = path.resolve(import.meta.dirname, "..");
    const files = proxySourceFiles(import.meta.dirname);
    expect(files.map((file) => path.basename(file))).toContain("worker.ts");

    expect(nodeImportsReachableFrom(files, root)).toEqual([]);
  });

  it("and the check finds one, however it is written and however deep", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "edge-safe-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const write = (name: string, source: string) => writeFileSync(path.join(dir, name), source);
    write(
      "entry.ts",
      `import { a } from "./middle.ts";\nimport { Hono } from "hono";\nexport const b = a;\n`,
    );
    write(
      "middle.ts",
      `export { c } from "./deep.ts";\nexport const a = await import("node:crypto");\n`,
    );
    write(
      "deep.ts",
      `import type { Socket } from "net";\nimport fs from "fs/promises";\nexport const c = 1;\n`,
    );
    write("unreached.ts", `import os from "node:os";\n`);

    expect(nodeImportsReachableFrom([path.join(dir, "entry.ts")], dir)).toEqual([
      { file: "middle.ts", imports: "node:crypto" },
      { file: "deep.ts", imports: "net" },
      { file: "deep.ts", imports: "fs/promises" },
    ]);
  });
});
