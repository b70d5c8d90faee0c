import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { AstroIntegration } from "astro";
import type { Plugin } from "vite";

/**
 * The Node adapter, building `src/server/entry.ts` as the server entry instead of its own: the
 * same exports plus `renderPage`, for the all-in-one start that serves pages in-process.
 */
export function withInProcessEntry(adapter: AstroIntegration): AstroIntegration {
  const configDone = adapter.hooks["astro:config:done"];
  if (!configDone) throw new Error(`${adapter.name} has no astro:config:done hook to wrap`);
  const entry = fileURLToPath(new URL("./entry.ts", import.meta.url));
  return {
    ...adapter,
    hooks: {
      ...adapter.hooks,
      "astro:config:done": (params) =>
        configDone({
          ...params,
          setAdapter: (settings) => params.setAdapter({ ...settings, serverEntrypoint: entry }),
        }),
    },
  };
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const COMPRESSIBLE = /\.(js|mjs|css|svg|html|json|txt|xml|webmanifest)$/;
/** Smaller files go as they are: compressed, they would still take the same one packet. */
export const PRECOMPRESS_MIN_BYTES = 512;

/**
 * Writes `.br` and `.gz` beside every compressible built asset, at maximum quality, once at
 * build time: the server sends them as they are instead of compressing on every request.
 */
export function precompressAssets(): AstroIntegration {
  return {
    name: "precompress-assets",
    hooks: {
      "astro:build:done": async ({ dir, logger }) => {
        let files = 0;
        for (const file of await listFiles(fileURLToPath(dir))) {
          if (!COMPRESSIBLE.test(file) || (await stat(file)).size < PRECOMPRESS_MIN_BYTES) continue;
          const bytes = await readFile(file);
          await writeFile(
            `${file}.br`,
            await brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
          );
          await writeFile(`${file}.gz`, await gzipAsync(bytes, { level: 9 }));
          files += 1;
        }
        logger.info(`${files} assets precompressed (brotli and gzip)`);
      },
    },
  };
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? listFiles(full) : [full];
    }),
  );
  return nested.flat();
}

const ASTRO_DIGEST_MODULE = /[\\/]astro[\\/]dist[\\/]core[\\/]encryption\.js$/;
const ASTRO_DIGEST_FUNCTION = "async function generateCspDigest(data, algorithm) {";

/**
 * Astro writes each page's Content-Security-Policy with the SHA-256 of its inline styles and
 * scripts, and computes those digests again with WebCrypto on every request, though a route's
 * inline code is the same on every request: about 110 µs of a page's CPU, a tenth of a signed-in
 * page (decision 112). This keeps each digest a serving process computed, so the policy is the same
 * and only its first page pays for it. A bounded number of contents is kept, so content that
 * changes per request (server islands, which the portal does not use) costs what it did.
 */
export function rememberCspDigests(): AstroIntegration {
  return {
    name: "remember-csp-digests",
    hooks: {
      "astro:config:setup": ({ updateConfig }) => {
        updateConfig({ vite: { plugins: [rememberCspDigestsPlugin()] } });
      },
    },
  };
}

function rememberCspDigestsPlugin(): Plugin {
  return {
    name: "remember-csp-digests",
    transform: {
      filter: { id: ASTRO_DIGEST_MODULE },
      handler: (code) => ({ code: withRememberedCspDigests(code), map: null }),
    },
  };
}

/** Astro's digest module with its `generateCspDigest` answering from memory what it computed once. */
export function withRememberedCspDigests(astroModule: string): string {
  if (!astroModule.includes(ASTRO_DIGEST_FUNCTION)) {
    // A newer Astro: fail the build rather than quietly hash on every request again.
    throw new Error(
      `remember-csp-digests: Astro's encryption.js no longer declares "${ASTRO_DIGEST_FUNCTION}"`,
    );
  }
  return astroModule.replace(
    ASTRO_DIGEST_FUNCTION,
    `const cspDigestsByAlgorithm = new Map();
const CSP_DIGESTS_KEPT = 512;
function generateCspDigest(data, algorithm) {
  let digests = cspDigestsByAlgorithm.get(algorithm);
  if (!digests) cspDigestsByAlgorithm.set(algorithm, (digests = new Map()));
  let digest = digests.get(data);
  if (digest === undefined) {
    digest = computeCspDigest(data, algorithm);
    if (digests.size < CSP_DIGESTS_KEPT) {
      digests.set(data, digest);
      digest.catch(() => digests.delete(data));
    }
  }
  return digest;
}
async function computeCspDigest(data, algorithm) {`,
  );
}
