import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loggablePath } from "./scrub.ts";

const serverDir = fileURLToPath(new URL("../../server/", import.meta.url));

// Links on the portal's public address whose path goes on past a fixed prefix, as the server
// builds them for mail and slips: new URL(`/prefix/${…}`, …origin) and `${…origin}/prefix/${…}`.
const LINK_BUILDERS = [
  /new URL\(\s*`(\/[^`$]*)\$\{[^`]*`\s*,\s*[\w.]*[Oo]rigin\s*\)/g,
  /`\$\{[\w.]*[Oo]rigin\}(\/[^`$]*)\$\{/g,
];

/** Each link prefix the server's code builds, with the files that build it. */
function linksBuiltByTheServer() {
  const found = new Map<string, string[]>();
  const files = readdirSync(serverDir, { recursive: true, encoding: "utf8" }).filter(
    (file) => file.endsWith(".ts") && !file.endsWith(".test.ts"),
  );
  for (const file of files) {
    const code = readFileSync(serverDir + file, "utf8");
    for (const builder of LINK_BUILDERS) {
      for (const [, prefix] of code.matchAll(builder)) {
        found.set(prefix!, [...(found.get(prefix!) ?? []), file]);
      }
    }
  }
  return found;
}

describe("links the portal mails or prints with a secret in their path", () => {
  const links = linksBuiltByTheServer();

  it("are found in the server's code, every one of today's among them", () => {
    // If one of these moves out of reach of LINK_BUILDERS, widen the patterns rather than the list.
    expect([...links.keys()]).toEqual(
      expect.arrayContaining([
        "/biodata/confirm/",
        "/password/reset/",
        "/staff/password/",
        "/verify/",
      ]),
    );
  });

  it.each([...links])("%s… is logged by the proxy without what follows (built in %s)", (prefix) => {
    const secret = "tok_4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c";
    const path = loggablePath(`http://localhost:4321${prefix}MQ/${secret}`);
    expect(path).not.toContain(secret);
    expect(path).toBe(`${prefix}[redacted]`);
  });
});
