import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dist = fileURLToPath(new URL("../../dist/", import.meta.url));

/** Every built file that can carry a page's CSS: the server chunks inline it, the client has the rest. */
async function builtFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(mjs|css)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

// Media queries in range syntax, e.g. (width<=600px) or (600px < width): Chrome before 104 and
// the old Android WebViews many students' phones run skip the whole rule (decision 150).
const RANGE_QUERY = /@media[^{]*\(\s*(?:[\d.]+[a-z]*\s*[<>]=?\s*)?(?:width|height)\s*[<>]=?/;

describe("the built CSS (decision 150)", () => {
  it("writes media queries as min-width and max-width, which old phones' browsers read", async () => {
    const files = await builtFiles(dist);
    expect(files.length).toBeGreaterThan(0);
    const offenders: string[] = [];
    let maxWidthQueries = 0;
    for (const file of files) {
      const text = await readFile(file, "utf8");
      const match = RANGE_QUERY.exec(text);
      if (match) offenders.push(`${path.relative(dist, file)}: ${match[0]}`);
      maxWidthQueries += text.match(/@media[^{]*\(max-width:/g)?.length ?? 0;
    }
    expect(offenders).toEqual([]);
    // The phone layouts are there, in the form old browsers read.
    expect(maxWidthQueries).toBeGreaterThan(0);
  });

  it("includes the site-wide CSS, now a minified string in the server's code rather than a page's block (decision 203)", async () => {
    const files = await builtFiles(dist);
    const carriers: string[] = [];
    for (const file of files) {
      const text = await readFile(file, "utf8");
      // Minified: no space after the colon, as global.css has it.
      const start = text.indexOf(":root{--brand:#0b6e4f;");
      if (start === -1) continue;
      carriers.push(path.relative(dist, file));
      const css = text.slice(start, text.indexOf('"', start));
      expect(css).toMatch(/@media \(max-width:\s*600px\)/);
      expect(RANGE_QUERY.exec(css)).toBeNull();
      expect(css).not.toContain("\\n");
      expect(css).not.toContain("/*");
    }
    // One copy, in the server's code: not bundled into a page's CSS as well.
    expect(carriers).toEqual([expect.stringMatching(/^server\//)]);
  });
});
