import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withRememberedCspDigests } from "./build-integrations.ts";

const astroDigestModule = async () => {
  const astroPackage = createRequire(import.meta.url).resolve("astro/package.json");
  return readFile(path.join(path.dirname(astroPackage), "dist/core/encryption.js"), "utf8");
};

describe("remembering Astro's CSP digests (decision 112)", () => {
  it("wraps the installed Astro's generateCspDigest and leaves the rest of its module as it was", async () => {
    const original = await astroDigestModule();
    const rewritten = withRememberedCspDigests(original);
    expect(rewritten).toContain("function generateCspDigest(data, algorithm) {");
    expect(rewritten).toContain("async function computeCspDigest(data, algorithm) {");
    expect(
      rewritten.replace(
        /const cspDigestsByAlgorithm[\s\S]*?async function computeCspDigest/,
        "async function generateCspDigest",
      ),
    ).toBe(original);
  });

  it("fails the build when a newer Astro no longer declares the function, instead of hashing per request again unnoticed", () => {
    expect(() =>
      withRememberedCspDigests("export async function generateCspDigest(data) {}"),
    ).toThrow(/no longer declares/);
  });
});
