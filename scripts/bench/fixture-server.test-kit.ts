import { createServer } from "node:http";
import { gzipSync } from "node:zlib";
import { listen } from "./floor.ts";
import type { LocalServer } from "./floor.ts";

/** Byte sizes the fixture page is built from, for tests to compare against. */
export interface FixtureSizes {
  html: number;
  css: number;
  jsRaw: number;
  jsGzip: number;
}

const CSS = `body { font: 16px/1.5 system-ui; margin: 1rem; }\n${".x{color:red}\n".repeat(200)}`;
const SCRIPT = `window.fixture = [${Array.from({ length: 6000 }, (_, i) => i * 7).join(",")}];\n`;
const SCRIPT_GZIP = gzipSync(SCRIPT, { level: 9 });
const INLINE = `<script>var data = "${"a1b2c3d4e5".repeat(4000)}";</script>`;
const HTML =
  '<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width">' +
  '<link rel="icon" href="data:,"><link rel="stylesheet" href="/style.css">' +
  `<script type="module" src="/app.js"></script>${INLINE}</head>` +
  "<body><h1>Fixture page with a heading</h1></body></html>\n";

/**
 * A page shaped like the ones the bench measures: render-blocking CSS, a 40 KB inline
 * script, and a module script sent gzip-compressed.
 */
export function startFixtureServer(): Promise<LocalServer & { sizes: FixtureSizes }> {
  const server = createServer((request, response) => {
    if (request.url === "/style.css") {
      response.writeHead(200, { "content-type": "text/css" });
      response.end(CSS);
    } else if (request.url === "/app.js") {
      response.writeHead(200, { "content-type": "text/javascript", "content-encoding": "gzip" });
      response.end(SCRIPT_GZIP);
    } else {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(HTML);
    }
  });
  const sizes = {
    html: Buffer.byteLength(HTML),
    css: Buffer.byteLength(CSS),
    jsRaw: Buffer.byteLength(SCRIPT),
    jsGzip: SCRIPT_GZIP.length,
  };
  return listen(server).then((local) => ({ ...local, sizes }));
}
