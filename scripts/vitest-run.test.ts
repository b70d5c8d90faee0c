import { describe, expect, it } from "vitest";
import { failedOnlyAtV8CodePageCheck, V8_CODE_PAGE_CHECK } from "./vitest-run.ts";

// The end of a run as vitest printed it when V8 killed a worker whose files had all passed.
const crashedAfterPassing = `
#
# Fatal error in , line 0
# ${V8_CODE_PAGE_CHECK}
\u001b[31m⎯⎯⎯⎯⎯⎯\u001b[39m\u001b[1m\u001b[41m Unhandled Errors \u001b[49m\u001b[22m
Vitest caught 1 unhandled error during the test run.
\u001b[31m\u001b[1mError\u001b[22m: [vitest-pool]: Worker forks emitted error.\u001b[39m
\u001b[31m\u001b[1mCaused by: Error\u001b[22m: Worker exited unexpectedly\u001b[39m
\u001b[2m Test Files \u001b[22m \u001b[1m\u001b[32m346 passed\u001b[39m\u001b[22m\u001b[2m | \u001b[22m\u001b[33m2 skipped\u001b[39m\u001b[90m (349)\u001b[39m
\u001b[2m      Tests \u001b[22m \u001b[1m\u001b[32m4520 passed\u001b[39m\u001b[22m\u001b[2m | \u001b[22m\u001b[33m17 skipped\u001b[39m\u001b[90m (4545)\u001b[39m
\u001b[2m     Errors \u001b[22m \u001b[1m\u001b[31m1 error\u001b[39m\u001b[22m
`;

describe("running vitest once more after V8 killed a worker", () => {
  it("does so when every test passed and the one error is the worker V8 killed", () => {
    expect(failedOnlyAtV8CodePageCheck(crashedAfterPassing)).toBe(true);
  });

  it("does not when a test failed as well", () => {
    const alsoFailed = crashedAfterPassing.replace(
      "4520 passed",
      "1 failed\u001b[39m\u001b[22m\u001b[2m | \u001b[22m\u001b[1m\u001b[32m4519 passed",
    );
    expect(failedOnlyAtV8CodePageCheck(alsoFailed)).toBe(false);
  });

  it("does not for another crash, or for more errors than the lost worker", () => {
    expect(
      failedOnlyAtV8CodePageCheck(
        crashedAfterPassing.replace(V8_CODE_PAGE_CHECK, "Check failed: something else"),
      ),
    ).toBe(false);
    expect(failedOnlyAtV8CodePageCheck(crashedAfterPassing.replace("1 error", "2 errors"))).toBe(
      false,
    );
  });

  it("does not when no worker was lost", () => {
    expect(
      failedOnlyAtV8CodePageCheck(crashedAfterPassing.replace("Worker exited unexpectedly", "")),
    ).toBe(false);
  });
});
