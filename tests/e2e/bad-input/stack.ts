import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import { createProxy } from "../../../proxy/app.ts";
import {
  createApiHarness,
  TEST_PROXY_SECRET,
} from "../../../server/testing/api-harness.test-kit.ts";

const listening = (server: Server) =>
  new Promise<number>((resolve) => {
    if (server.listening) resolve((server.address() as AddressInfo).port);
    else server.once("listening", () => resolve((server.address() as AddressInfo).port));
  });

/**
 * The portal as `runtime/start.ts` assembles it, each part on its own socket of 127.0.0.1: the
 * real API on a fresh in-memory database, the built page server (`astro build` first) and the
 * proxy in front. Over real sockets a relay that breaks shows as a reset, not a thrown error.
 */
export async function startPortalStack() {
  const api = await createApiHarness();
  const servers: Server[] = [];
  async function stop() {
    await Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    );
    await api.close();
  }
  try {
    const apiServer = serve({ fetch: api.app.fetch, hostname: "127.0.0.1", port: 0 }) as Server;
    servers.push(apiServer);
    const apiUrl = `http://127.0.0.1:${await listening(apiServer)}`;

    // The proxy needs its own address as the public origin: listen first, build it then.
    let proxy: ReturnType<typeof createProxy> | undefined;
    const proxyServer = serve({
      fetch: (request, env) => proxy!.fetch(request, env),
      hostname: "127.0.0.1",
      port: 0,
    }) as Server;
    servers.push(proxyServer);
    const origin = `http://127.0.0.1:${await listening(proxyServer)}`;

    // The page server reads these once, when it first renders.
    Object.assign(process.env, {
      API_URL: apiUrl,
      PROXY_SHARED_SECRET: TEST_PROXY_SECRET,
      PUBLIC_ORIGIN: origin,
      ASTRO_NODE_AUTOSTART: "disabled",
    });
    const entry = pathToFileURL(path.resolve("dist/server/entry.mjs")).href;
    const { handler } = (await import(entry)) as { handler: Parameters<typeof createServer>[1] };
    const pagesServer = createServer(handler).listen(0, "127.0.0.1");
    servers.push(pagesServer);
    const pagesUrl = `http://127.0.0.1:${await listening(pagesServer)}`;
    proxy = createProxy({ publicOrigin: origin, apiUrl, pagesUrl, proxySecret: TEST_PROXY_SECRET });

    return { api, origin, stop };
  } catch (error) {
    // A stack that failed to start (no build in dist/) still closes what it opened.
    await stop();
    throw error;
  }
}
