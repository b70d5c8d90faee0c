import { defineConfig } from "vitest/config";

// API suites run on embedded PGlite always, and once more on a real PostgreSQL
// server when DATABASE_URL is set (CI sets it), so both drivers are exercised.
const apiSuites = ["server/**/*.api.test.ts", "proxy/**/*.api.test.ts"];
// Suites that need `astro build`'s output, run after it (`npm test` runs them after the journeys'
// build): the proxy on workerd in front of the API and the built pages (decision 127), and how
// the serving process loads the built pages.
const builtSuites = ["proxy/**/*.workerd.test.ts", "scripts/**/*.built.test.ts"];
const onPostgres = Boolean(process.env.DATABASE_URL);
// Migrates one database before the run; each test database starts as a copy of it.
const databaseTemplate = ["server/testing/database-template.ts"];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "server/**/*.test.ts", "proxy/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: [...apiSuites, ...builtSuites],
        },
      },
      {
        test: {
          name: "api-pglite",
          include: apiSuites,
          env: { TEST_DATABASE: "pglite" },
          globalSetup: databaseTemplate,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "built",
          include: builtSuites,
          env: { TEST_DATABASE: "pglite" },
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
                globalSetup: databaseTemplate,
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
