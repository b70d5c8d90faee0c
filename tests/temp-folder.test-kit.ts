/**
 * Vitest's global set-up for every project: the run's temporary files go to a folder of its own,
 * and the run fails when its tests leave anything there.
 *
 * The first project to start makes `portal-test-run-*` in the machine's temporary folder and points
 * TMPDIR at it, so every `os.tmpdir()` of the run's workers, and of the portals, proxies and
 * tools they start, lands inside it. The last project to finish (after every project's own
 * teardown, such as the template database's) lists what is still there, removes the folder, and
 * fails the run naming each leftover. Only this run writes there: temporary files of other
 * processes on the machine, or of another checkout's test run, can neither make the check fail
 * nor hide a leak from it. A path written out as /tmp would escape it (none is, here).
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

type RunFolder = {
  path: string;
  previousEnv: Record<string, string | undefined>;
  projects: number;
};

// Each project's global set-up is loaded on its own: the run's folder is kept on the process.
const RUN_FOLDER = Symbol.for("college-student-portal.test-run-temp-folder");
const shared = globalThis as { [RUN_FOLDER]?: RunFolder };

export default async function setup() {
  let run = shared[RUN_FOLDER];
  if (!run) {
    const machineTmpdir = tmpdir();
    const env = {
      TMPDIR: await mkdtemp(path.join(machineTmpdir, "portal-test-run-")),
      // Playwright's compiled test files (scripts/e2e-lanes.test.ts lists the journeys) are a
      // cache kept between runs, where Playwright keeps it by default, not a file a test made.
      PLAYWRIGHT_TRANSFORM_CACHE_DIR:
        process.env.PLAYWRIGHT_TRANSFORM_CACHE_DIR ??
        path.join(machineTmpdir, `playwright-transform-cache-${process.geteuid?.() ?? ""}`),
    };
    run = {
      path: env.TMPDIR,
      previousEnv: Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]])),
      projects: 0,
    };
    shared[RUN_FOLDER] = run;
    Object.assign(process.env, env);
  }
  run.projects += 1;
  const owned = run;

  return async function teardown() {
    owned.projects -= 1;
    if (owned.projects > 0) return;
    delete shared[RUN_FOLDER];
    for (const [name, value] of Object.entries(owned.previousEnv)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    const leftovers = await readdir(owned.path);
    await rm(owned.path, { recursive: true, force: true });
    if (leftovers.length === 0) return;
    // An error in a teardown is only printed: the exit code is what CI reads.
    process.exitCode = 1;
    throw new Error(
      `The tests left ${leftovers.length} temporary file(s) or folder(s) behind: ` +
        `${leftovers.sort().join(", ")}. They are removed now, but whatever made them must ` +
        "remove them itself (afterAll, onTestFinished or try/finally), as it would be outside " +
        "this check.",
    );
  };
}
