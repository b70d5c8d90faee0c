import { defineConfig } from "vitest/config";

// API suites run on embedded PGlite always, and once more on a real PostgreSQL
// server when DATABASE_URL is set (CI sets it), so both drivers are exercised.
const apiSuites = [
  "server/**/*.api.test.ts",
  "proxy/**/*.api.test.ts",
  // The benchmarks' database builders, at a small size.
  "scripts/**/*.api.test.ts",
];
// Suites that need `astro build`'s output, run after it (`npm test` runs them after the journeys'
// build): the proxy on workerd in front of the API and the built pages (decision 127), and how
// the serving process loads the built pages.
const builtSuites = ["proxy/**/*.workerd.test.ts", "runtime/**/*.built.test.ts"];
const onPostgres = Boolean(process.env.DATABASE_URL);
// Every project's temporary files go to one folder for the run, and the run fails when a test
// leaves anything in it. First in each list: a project's set-ups are torn down in reverse order.
const tempFolder = "tests/temp-folder.test-kit.ts";
// Migrates one database before the run; each test database starts as a copy of it.
const databaseTemplate = "server/testing/database-template.test-kit.ts";

// V8's bookkeeping of code pages under memory protection keys (on wherever the CPU has them, as
// these machines' do) now and then fails a check when PGlite's WebAssembly is torn down, killing a
// worker that has passed every test ("Check failed: jit_page_->allocations_.erase(addr) == 1", in
// ThreadIsolation::UnregisterWasmAllocation; twice in about six CI runs). The workers run without
// that protection, which guards against attacks on the JIT, not anything a test checks. It made
// the crash rarer, not gone: scripts/vitest-run.ts runs the tests once more when it is all that
// failed (decision 197).
const workerNodeFlags = ["--no-memory-protection-keys"];

// A worker imports the code once for all the files it runs, not once per file: importing the API
// and its harness takes ≈ 2.5 s, most of each API file's time (decision 136). What the code keeps
// at module level is caches keyed by the database or read once from the environment; each file
// still builds its own API and database. Spies, stubbed globals and variables are undone after
// every test, so none reaches the next file.
const modulesSharedAcrossFiles = {
  isolate: false,
  execArgv: workerNodeFlags,
  restoreMocks: true,
  unstubEnvs: true,
  unstubGlobals: true,
};

export default defineConfig({
  test: {
    // Vitest's default leaves one core to itself: on our two-core machines that ran every file in
    // turn. Its own process does little while the files run, so both cores run files.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: "unit",
          include: [
            "common/**/*.test.ts",
            "src/**/*.test.ts",
            "server/**/*.test.ts",
            "proxy/**/*.test.ts",
            "runtime/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
          exclude: [...apiSuites, ...builtSuites],
          globalSetup: [tempFolder],
          ...modulesSharedAcrossFiles,
        },
      },
      {
        test: {
          name: "api-pglite",
          include: apiSuites,
          env: { TEST_DATABASE: "pglite" },
          globalSetup: [tempFolder, databaseTemplate],
          ...modulesSharedAcrossFiles,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "built",
          include: builtSuites,
          execArgv: workerNodeFlags,
          env: { TEST_DATABASE: "pglite" },
          globalSetup: [tempFolder],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(onPostgres
        ? [
            {
              test: {
                name: "api-postgres",
                include: apiSuites,
                env: { TEST_DATABASE: "postgres" },
                globalSetup: [tempFolder, databaseTemplate],
                ...modulesSharedAcrossFiles,
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
