// The conventions a reviewer would otherwise have to remember (decision 170): which folder may
// import which, where the environment is read, and the rules of React hooks in the islands.
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

const TESTS = ["**/*.test.ts", "**/*.test-kit.ts", "tests/**"];

// An import that climbs out of its folder into one of these (relative paths only: there are no aliases).
const into = (...folders) => ({
  regex: `^(\\.\\./)+(${folders.join("|")})/`,
  message: `This folder may not import from ${folders.join(", ")}/: see the layout table in README.md.`,
});
const NODE_BUILTINS = {
  regex: "^node:",
  message:
    "Code every process shares (and the edge proxy) runs where Node's modules do not: name the file *.server.ts if it only runs on Node.",
};
const SERVER_ONLY = {
  regex: "\\.server\\.ts$",
  message: "A *.server.ts file runs only on Node: the edge proxy and the browser cannot load it.",
};
const layer = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: { "no-restricted-imports": ["error", { patterns }] },
});

const ENV_MODULES = ["server/env.ts", "proxy/env.ts", "src/lib/config/site.server.ts"];

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      ".astro/**",
      "data/**",
      "**/*.astro",
      "server/db/migrations/**",
    ],
  },
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { parser: tseslint.parser, ecmaVersion: "latest", sourceType: "module" },
    plugins: { "@typescript-eslint": tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  // What every process shares: pure, and above every other folder.
  layer(
    ["common/**/*.ts"],
    [into("src", "server", "proxy", "runtime", "scripts", "tests"), NODE_BUILTINS],
    ["common/**/*.server.ts", ...TESTS],
  ),
  layer(["common/**/*.server.ts"], [into("src", "server", "proxy", "runtime", "scripts", "tests")]),
  // The edge proxy runs on workerd and Cloudflare as well as Node.
  layer(
    ["proxy/**/*.ts"],
    [into("src", "server", "runtime", "scripts", "tests"), NODE_BUILTINS, SERVER_ONLY],
    TESTS,
  ),
  // The pages never reach into the API's code: they call it.
  layer(["src/**/*.{ts,tsx}"], [into("server", "runtime", "scripts", "tests")], TESTS),
  layer(
    ["src/islands/**", "src/components/**/*.tsx", "src/lib/stores/**", "src/lib/ui/**"],
    [into("server", "runtime", "scripts", "tests"), NODE_BUILTINS, SERVER_ONLY],
  ),
  // The API is started by the runtime, never the other way round.
  layer(["server/**/*.ts"], [into("src", "runtime", "scripts", "tests")], TESTS),
  layer(["runtime/**/*.ts"], [into("scripts", "tests")], TESTS),
  {
    // Configuration is read, checked and defaulted in one module per part (fail closed, decision 123).
    files: ["common/**/*.ts", "src/**/*.{ts,tsx}", "server/**/*.ts", "proxy/**/*.ts"],
    ignores: [...ENV_MODULES, ...TESTS],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: `Read settings in the part's env module (${ENV_MODULES.join(", ")}) and pass them in.`,
        },
      ],
    },
  },
  {
    files: ["src/**/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
);
