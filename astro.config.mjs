// @ts-check
import { defineConfig } from "astro/config";
import react from "@astrojs/react";
import node from "@astrojs/node";
import {
  precompressAssets,
  rememberCspDigests,
  withInProcessEntry,
} from "./src/server/build-integrations.ts";
import { POLICY_DIRECTIVES, STYLE_SOURCES } from "./common/security/content-security-policy.ts";

export default defineConfig({
  output: "server",
  adapter: withInProcessEntry(node({ mode: "standalone" })),
  integrations: [react(), precompressAssets(), rememberCspDigests()],
  build: {
    // One round trip: a page's CSS arrives inside its HTML instead of as a blocking request.
    inlineStylesheets: "always",
  },
  compressHTML: true,
  vite: {
    build: {
      // The CSS minifier writes for the browsers it is told of: left to its default (recent
      // browsers) it turns max-width queries into range syntax, which Chrome before 104 and old
      // Android WebViews ignore, so a cheap phone got the wide layout (decision 150).
      cssTarget: ["chrome61", "firefox60", "safari11", "edge18"],
    },
  },
  // The proxy checks the origin of every state-changing request before it reaches a page.
  security: {
    checkOrigin: false,
    // Each page's Content-Security-Policy header lists the SHA-256 of every script Astro inlines
    // (island hydration, small bundled scripts), so no inline script of anyone else's can run.
    csp: {
      directives: [...POLICY_DIRECTIVES],
      styleDirective: { resources: [...STYLE_SOURCES] },
    },
  },
  // No Markdown here; turning Shiki off also silences its warning about CSP.
  markdown: { syntaxHighlight: false },
  devToolbar: { enabled: false },
});
