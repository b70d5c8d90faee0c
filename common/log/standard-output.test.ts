import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

describe("standard output written in the background", () => {
  it("is one writer per process, however many copies of the module are loaded", async () => {
    const first = await import("./standard-output.server.ts");
    vi.resetModules();
    const second = await import("./standard-output.server.ts");
    expect(second).not.toBe(first);
    expect(second.standardOutput()).toBe(first.standardOutput());
  });

  it("writes every line, whole and in order, from a process that logs fast and then exits", () => {
    // Through a pipe, as a service manager or the load simulation reads the portal.
    const script = `
      const { createLogger } = await import(${JSON.stringify(here("./logger.server.ts"))});
      const { writeLine } = await import(${JSON.stringify(here("./standard-output.server.ts"))});
      const logger = createLogger({ name: "portal", level: "info" });
      for (let i = 0; i < 20000; i += 1) {
        if (i % 2) logger.info("request", { n: i, padding: "x".repeat(200) });
        else writeLine(JSON.stringify({ name: "proxy", n: i, padding: "y".repeat(200) }));
      }
      process.exit(0);`;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      maxBuffer: 64 * 2 ** 20,
    });
    const lines = output.trimEnd().split("\n");
    expect(lines).toHaveLength(20000);
    expect(lines.map((line) => (JSON.parse(line) as { n: number }).n)).toEqual([
      ...Array(20000).keys(),
    ]);
    // A child process writing 20,000 lines takes seconds on a busy two-core machine.
  }, 30_000);
});
