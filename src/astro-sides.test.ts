import { readdirSync, readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// ESLint does not read .astro files, yet each holds both sides of decision 170: its frontmatter runs
// in the page server and its <script> tags in the browser. The sides' names are checked here.

const SRC = new URL("./", import.meta.url);
const astroFiles = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter((name) =>
  name.endsWith(".astro"),
);

function sidesOf(name: string) {
  const text = readFileSync(new URL(name, SRC), "utf8");
  const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? "";
  const scripts = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map(
    (match) => match[1]!,
  );
  return { frontmatter, scripts: scripts.join("\n") };
}

// Every form counts: import, import type, export … from, import().
const importsOf = (code: string) =>
  ts.preProcessFile(code, true, true).importedFiles.map((file) => file.fileName);

function refused(side: "frontmatter" | "scripts", wrong: RegExp) {
  return astroFiles.flatMap((name) =>
    importsOf(sidesOf(name)[side])
      .filter((specifier) => wrong.test(specifier))
      .map((specifier) => `${name}: ${specifier}`),
  );
}

describe("the two sides of an .astro file (decision 170)", () => {
  it("reads every page, layout and component, and the scripts among them", () => {
    expect(astroFiles.length).toBeGreaterThan(50);
    expect(
      astroFiles.filter((name) => sidesOf(name).scripts.includes("import")).length,
    ).toBeGreaterThan(5);
  });

  it("loads no *.client.ts in frontmatter, which the page server runs", () => {
    expect(refused("frontmatter", /\.client\.ts$/)).toEqual([]);
  });

  it("loads in <script> tags, which the browser runs, no *.server.ts, no node: module and none of the servers' or tools' code", () => {
    expect(
      refused("scripts", /\.server\.ts$|^node:|^(\.\.\/)+(server|runtime|scripts|tests)\//),
    ).toEqual([]);
  });
});
