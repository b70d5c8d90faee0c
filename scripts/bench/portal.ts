import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionCookie } from "./measure.ts";
import { freePortBlock } from "./local-ports.ts";
import { startPortal as startPortalProcess, type StartedPortal } from "../load/portal.ts";

/** A portal the bench measures; `stop()` ends it if the bench started it. */
export interface RunningPortal {
  url: string;
  stop(): Promise<void>;
  /** Why the portal is gone if it stopped by itself (with its last output), else `null`. */
  crashReport(): string | null;
}

/** The demo student the seed creates outside production. */
export const DEMO_STUDENT = { username: "08030000001", password: "demo1234" };

const READY = /Portal ready on (http:\/\/\S+)/;
const KEPT_LINES = 200;

/** A portal already running elsewhere, e.g. from `--url`. */
export function existingPortal(url: string): RunningPortal {
  return { url, stop: async () => {}, crashReport: () => null };
}

/**
 * Starts `node runtime/start.ts` from `root` on free ports with an empty data directory (and, when
 * given, a fresh PostgreSQL database) so the demo seed runs, and resolves once it is ready.
 */
export async function startPortal(
  root: string,
  timeoutMs = 120_000,
  options: { databaseUrl?: string } = {},
): Promise<RunningPortal & Pick<StartedPortal, "usage">> {
  const dataDir = await mkdtemp(join(tmpdir(), "portal-bench-"));
  const port = await freePortBlock();
  try {
    const portal = await startPortalProcess({
      root,
      port,
      dataDir,
      databaseUrl: options.databaseUrl,
      timeoutMs,
    });
    return {
      ...portal,
      async stop() {
        await portal.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Signs in through the proxy's form handler and returns the session cookie(s) it sets,
 * ready to add to a browser context.
 */
export async function signIn(
  baseUrl: string,
  credentials: { username: string; password: string } = DEMO_STUDENT,
): Promise<SessionCookie[]> {
  const url = new URL("/login", baseUrl);
  const response = await fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: url.origin },
    body: new URLSearchParams(credentials),
  }).catch((error: Error) => {
    const cause = error.cause instanceof Error ? error.cause.message : error.message;
    throw new Error(`Could not reach ${url} to sign in: ${cause}`);
  });
  const cookies = response.headers.getSetCookie().flatMap(parseSetCookie);
  if (response.status < 300 || response.status >= 400 || cookies.length === 0) {
    throw new Error(
      `Signing in as ${credentials.username} at ${url} answered ${response.status} ` +
        `with ${cookies.length} cookie(s); expected a redirect that sets the session cookie.`,
    );
  }
  return cookies;
}

/** `name=value; Path=/; HttpOnly` → the name and value, or nothing for a cleared cookie. */
function parseSetCookie(header: string): SessionCookie[] {
  const pair = header.split(";")[0];
  const equals = pair.indexOf("=");
  const name = pair.slice(0, equals).trim();
  const value = pair.slice(equals + 1).trim();
  return equals > 0 && value ? [{ name, value }] : [];
}
