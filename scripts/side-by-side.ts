/**
 * Runs shell commands at the same time and fails if any fails: `node scripts/side-by-side.ts
 * "cmd one" "cmd two"`. For steps of `npm test` and `npm run check` that leave a core idle when
 * run one after another (a type check beside a linter; suites that mostly wait on the portals they
 * start). Each command's output is held and printed whole when it ends, so the two never
 * interleave; a command that fails is named with its exit code.
 */
import { spawn } from "node:child_process";

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('Usage: node scripts/side-by-side.ts "command" ["command" …]');
  process.exit(2);
}

const outcomes = await Promise.all(
  commands.map(
    (command) =>
      new Promise<{ command: string; code: number; seconds: number }>((resolve) => {
        const started = performance.now();
        const output: Buffer[] = [];
        const child = spawn(command, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
        child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
        child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
        child.on("close", (code, signal) => {
          process.stdout.write(Buffer.concat(output));
          const seconds = Math.round((performance.now() - started) / 1000);
          resolve({ command, code: code ?? (signal ? 1 : 0), seconds });
        });
      }),
  ),
);

for (const { command, code, seconds } of outcomes)
  console.log(
    `${code === 0 ? "passed" : `FAILED (exit code ${code})`} in ${seconds} s: ${command}`,
  );
process.exit(outcomes.some((outcome) => outcome.code !== 0) ? 1 : 0);
