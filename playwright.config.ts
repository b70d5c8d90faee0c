import { existsSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { PHONE_360, PHONE_390 } from "./tests/e2e/phone/phones.ts";

// Playwright cannot download its own browser on our machines: use the system Chromium.
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromiumPath)) {
  throw new Error(
    `No Chromium at ${chromiumPath}. Install it with "apt-get install -y chromium" ` +
      "or point CHROMIUM_PATH at a Chromium or Chrome binary.",
  );
}

const port = Number(process.env.E2E_PORT ?? 4400);
// Every run starts from an empty embedded database, whatever DATABASE_URL the shell has.
const dataDir = mkdtempSync(path.join(tmpdir(), "portal-e2e-"));
// What journeys hand on to later ones in the same run (the administrator's authenticator key):
// set once here, in the runner, and inherited by its workers.
process.env.E2E_STATE_DIR ??= mkdtempSync(path.join(tmpdir(), "portal-e2e-state-"));

const PHONE_FOLDER = "phone/**";
const PHONE_JOURNEYS = "phone/**/*.spec.ts";
const AFTER_ALL = "last/**/*.spec.ts";

/** One of the phones, in Chromium, saying it is an Android phone as a student's browser does. */
function android(phone: typeof PHONE_360) {
  return { ...devices["Galaxy S8"], ...phone };
}

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromiumPath,
      args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-gpu"],
    },
  },
  projects: [
    { name: "chromium", testIgnore: [PHONE_FOLDER, AFTER_ALL], use: { ...devices["Desktop Chrome"], channel: undefined } },
    // The cheap Android phones students use (issue 29): the phone folder only, at two common widths.
    { name: "phone-360", testMatch: PHONE_JOURNEYS, use: android(PHONE_360) },
    // The checks' own tests on small made-up pages do not depend on the width: once is enough. So
    // is the staff sweep (decision 166): staff pages at 360 px hold at 390, and it is CI's longest.
    {
      name: "phone-390",
      testMatch: PHONE_JOURNEYS,
      testIgnore: ["phone/checks.spec.ts", "phone/every-staff-page-fits-a-phone.spec.ts"],
      use: android(PHONE_390),
    },
    // Journeys that move the whole college on (a newer current session, which cannot be undone):
    // after every other journey, which rely on 2024/2025 being current. Alone: --project=after-all --no-deps.
    { name: "after-all", testMatch: AFTER_ALL, dependencies: ["chromium", "phone-360", "phone-390"], use: { ...devices["Desktop Chrome"], channel: undefined } },
  ],
  webServer: {
    command: "node runtime/start.ts",
    url: `http://localhost:${port}/login`,
    timeout: 120_000,
    reuseExistingServer: false,
    // Logs are JSON lines on standard output; only errors are shown, as a failing journey's clue.
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      PUBLIC_ORIGIN: `http://localhost:${port}`,
      NODE_ENV: "test",
      LOG_LEVEL: "error",
    },
  },
});
