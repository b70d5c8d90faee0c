import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { PHONE_360, PHONE_390 } from "./tests/e2e/phone/phones.ts";

// Playwright cannot download its own browser on our machines: use the system Chromium. Headless,
// that is Debian's headless shell when it is there: the whole browser, even headless, runs what a
// Chrome window needs besides the page, and took twice the CPU for the same journeys, CI's main
// cost (decision 172). A headed or debugging run needs the whole browser. Chosen once, in the
// runner, whose workers inherit it: they do not see the runner's command line.
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const headed =
  Boolean(process.env.PWDEBUG) ||
  process.argv.some((arg) => ["--headed", "--debug", "--ui"].includes(arg));
process.env.CHROMIUM_PATH ??=
  !headed && existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium";
const chromiumPath = process.env.CHROMIUM_PATH;
if (!existsSync(chromiumPath)) {
  throw new Error(
    `No Chromium at ${chromiumPath}. Install it with ` +
      '"apt-get install -y chromium chromium-headless-shell" ' +
      "or point CHROMIUM_PATH at a Chromium or Chrome binary.",
  );
}

// The journeys run in two lanes at once, each against a portal and database of its own, one
// Chromium per core (scripts/e2e-lanes.ts, decision 171). E2E_LANE picks a lane; unset, one run
// takes every journey against one portal.
const lane = process.env.E2E_LANE || undefined;
if (lane !== undefined && lane !== "students" && lane !== "staff")
  throw new Error(`E2E_LANE is "students", "staff" or unset, not "${lane}".`);
const port = Number(process.env.E2E_PORT ?? (lane === "staff" ? 4420 : 4400));
// The journeys' helpers read the port from here (tests/e2e/support.ts).
process.env.E2E_PORT = String(port);
/**
 * A folder for the whole run, in the environment variable `name`. Playwright loads this file in
 * its runner and again in each worker: the runner makes the folder, its workers inherit the
 * variable, and the runner removes the folder as it exits, after its web server has stopped,
 * whether the journeys passed or not (`--list` too). A folder given in the variable is kept.
 */
function runFolder(name: string, prefix: string): string {
  const given = process.env[name];
  if (given) return given;
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  process.env[name] = folder;
  process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
  return folder;
}
// Every run starts from an empty embedded database, whatever DATABASE_URL the shell has.
const dataDir = runFolder("E2E_DATA_DIR", "portal-e2e-");
// What journeys hand on to later ones in the same run (the administrator's authenticator key).
runFolder("E2E_STATE_DIR", "portal-e2e-state-");

const PHONE_FOLDER = "phone/**";
const PHONE_JOURNEYS = "phone/**/*.spec.ts";
const AFTER_ALL = "last/**/*.spec.ts";
// The staff sweep: every staff page, and every step that asks before acting, at 360 px.
const STAFF_SWEEP = "phone/every-staff-*-fits-a-phone.spec.ts";
// The staff lane: the college's staff at work, and what needs no student of the other lane. The
// lanes are about even in time (each about half of the whole, measured per file); the phone's
// course registration came over once staff sign-ins stopped waiting for codes (decision 172).
const STAFF_LANE = [
  "staff-*.spec.ts",
  "lecturer-*.spec.ts",
  "registry-*.spec.ts",
  "bursar-*.spec.ts",
  "pay-without-javascript.spec.ts",
  "phone-registers-courses.spec.ts",
  "hod-and-exams-office-publish-results.spec.ts",
];
const inLane = (name: "students" | "staff") => lane === undefined || lane === name;

/** One of the phones, in Chromium, saying it is an Android phone as a student's browser does. */
function android(phone: typeof PHONE_360) {
  return { ...devices["Galaxy S8"], ...phone };
}

export default defineConfig({
  testDir: "tests/e2e",
  // Each lane's traces and screenshots in a folder of its own: a run empties its folder as it starts.
  outputDir: lane ? `test-results/${lane}` : "test-results",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${port}`,
    // Recording a trace costs every journey CPU, most of it thrown away when the journey passes:
    // in CI a failed journey runs once more with one, which is kept (decision 171).
    trace: process.env.CI ? "on-first-retry" : "retain-on-failure",
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        "--no-sandbox",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-gpu",
      ],
    },
  },
  projects: [
    {
      name: "chromium",
      testIgnore: [PHONE_FOLDER, AFTER_ALL, ...(lane === "students" ? STAFF_LANE : [])],
      ...(lane === "staff" ? { testMatch: STAFF_LANE } : {}),
      use: { ...devices["Desktop Chrome"], channel: undefined },
    },
    // The cheap Android phones students use (issue 29): the phone folder only, at two common widths.
    {
      name: "phone-360",
      testMatch: lane === "staff" ? STAFF_SWEEP : PHONE_JOURNEYS,
      testIgnore: lane === "students" ? [STAFF_SWEEP] : [],
      use: android(PHONE_360),
    },
    // The checks' own tests on small made-up pages do not depend on the width: once is enough. So
    // is the staff sweep (decision 166): staff pages at 360 px hold at 390, and it is CI's longest.
    ...(inLane("staff")
      ? [
          {
            name: "phone-390",
            testMatch: PHONE_JOURNEYS,
            testIgnore: ["phone/checks.spec.ts", STAFF_SWEEP],
            use: android(PHONE_390),
          },
          // Journeys that move the whole college on (a newer current session, which cannot be
          // undone): after every other journey of their portal, which rely on 2024/2025 being
          // current. Alone: --project=after-all --no-deps.
          {
            name: "after-all",
            testMatch: AFTER_ALL,
            dependencies: ["chromium", "phone-360", "phone-390"],
            use: { ...devices["Desktop Chrome"], channel: undefined },
          },
        ]
      : []),
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
      // Both gateways, as the demo offers them: Paystack's journeys and Remita's run side by side.
      PAYMENT_GATEWAYS: "paystack,remita",
      // Every journey is a new browser, several a second on a machine busy with both lanes: a line
      // forms only when a journey holds the door (student-waits-in-line.spec.ts), not because the
      // portal, slowed by the journeys themselves, measured less room than they arrive at.
      WAITING_LINE_MIN_PER_SECOND: "100",
    },
  },
});
