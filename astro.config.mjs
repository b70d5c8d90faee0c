// @ts-check
import { defineConfig } from "astro/config";
import react from "@astrojs/react";
import node from "@astrojs/node";

export default defineConfig({
  output: "server",
  adapter: node({ mode: "standalone" }),
  integrations: [react()],
  build: {
    // One round trip: a page's CSS arrives inside its HTML instead of as a blocking request.
    inlineStylesheets: "always",
  },
  compressHTML: true,
  // The proxy checks the origin of every state-changing request before it reaches a page.
  security: { checkOrigin: false },
  devToolbar: { enabled: false },
});
