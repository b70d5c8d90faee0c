import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const script = path.join(import.meta.dirname, "side-by-side.ts");

async function sideBySide(...commands: string[]) {
  try {
    const { stdout } = await run(process.execPath, [script, ...commands]);
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

describe("scripts/side-by-side.ts", () => {
  it("runs the commands at once, and prints each one's output whole", async () => {
    // Started first, the first command ends last: its output comes second only if both ran at once.
    const { code, stdout } = await sideBySide(
      "echo one-a; sleep 0.3; echo one-b",
      "echo two-a; echo two-b",
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/two-a\ntwo-b\none-a\none-b\n/);
    expect(stdout).toMatch(/passed in \d+ s: echo one-a/);
  });

  it("fails when any command fails, and names it", async () => {
    const { code, stdout } = await sideBySide("true", "echo broken; exit 3");
    expect(code).toBe(1);
    expect(stdout).toMatch(/FAILED \(exit code 3\) in \d+ s: echo broken; exit 3/);
    expect(stdout).toMatch(/passed in \d+ s: true/);
  });
});
