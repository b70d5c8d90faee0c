import { createRequire } from "node:module";
import { afterAll, describe, expect, it } from "vitest";
import { loadBuiltPages } from "./in-process-pages.ts";

const require = createRequire(import.meta.url);
// Node lists a CommonJS file in the cache as soon as it has read its exports (React's index names
// both builds); only the one it ran is `loaded`.
const ranFiles = () => Object.entries(require.cache).flatMap(([file, module]) => (module?.loaded ? [file] : []));

describe("a serving process loading the built pages under NODE_ENV=development (npm start)", () => {
  const nodeEnv = process.env.NODE_ENV;
  afterAll(() => {
    process.env.NODE_ENV = nodeEnv;
  });

  it("renders with React's production build, and leaves NODE_ENV as it was for everything else", async () => {
    process.env.NODE_ENV = "development";
    const pages = await loadBuiltPages();
    const login = await pages.fetch(new Request("http://127.0.0.1/login"));
    expect(login.status).toBe(200);
    expect(await login.text()).toContain("<form");

    expect(process.env.NODE_ENV).toBe("development");
    const react = ranFiles().filter((file) => /node_modules\/react(-dom)?\/cjs\//.test(file));
    expect(react.some((file) => file.endsWith("react.production.js"))).toBe(true);
    expect(react.filter((file) => file.includes(".development.")), react.join("\n")).toEqual([]);
  });
});
