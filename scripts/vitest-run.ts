/**
 * `vitest` with its arguments, run once more only when V8 itself killed a test worker after every
 * test had passed: the check in V8's bookkeeping of WebAssembly code pages that now and then
 * fails as PGlite's WebAssembly is freed ("Check failed: jit_page_->allocations_.erase(addr) ==
 * 1"), which turning off memory protection keys in the workers made rarer but did not end
 * (vitest.config.ts). The second run must pass on its own; any failed test, any other error, or
 * the crash again fails the run as before. Decision 197 says why this and not something else.
 *   node scripts/vitest-run.ts run --project unit
 */
import { spawn } from "node:child_process";

export const V8_CODE_PAGE_CHECK = "Check failed: jit_page_->allocations_.erase(addr) == 1";

/**
 * Whether a failed run failed only because V8 killed a worker at that check: the crash is in the
 * output, a worker exited unexpectedly, vitest names no failed test or file, and it counts one
 * error only (the lost worker).
 */
export function failedOnlyAtV8CodePageCheck(output: string): boolean {
  // Vitest colours its summary; the ANSI codes go before the words are read.
  const plain = output.replace(/\u001b\[[0-9;]*m/g, "");
  return (
    plain.includes(V8_CODE_PAGE_CHECK) &&
    plain.includes("Worker exited unexpectedly") &&
    !/\b\d+ failed\b/.test(plain) &&
    /Errors\s+1 error\b/.test(plain)
  );
}

function runVitest(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("vitest", args, { stdio: ["inherit", "pipe", "pipe"], shell: false });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      process.stdout.write(chunk);
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      process.stderr.write(chunk);
      output += chunk.toString();
    });
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const first = await runVitest(args);
  if (first.code === 0 || !failedOnlyAtV8CodePageCheck(first.output)) process.exit(first.code);
  console.error(
    `\nEvery test passed, but V8 killed a test worker at "${V8_CODE_PAGE_CHECK}" (decision 197). Running the same tests once more; this run decides.\n`,
  );
  process.exit((await runVitest(args)).code);
}
