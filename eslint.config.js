// The conventions a reviewer would otherwise have to remember (decision 170): which folder, and
// which side of the pages, may import which; where the environment is read; and the rules of React
// hooks in the islands.
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
const CLIENT_ONLY = {
  regex: "\\.client\\.ts$",
  message:
    "A *.client.ts file runs only in the browser (it reaches for the page): the servers, the proxy and the tools cannot load it.",
};
const ONE_SIDE = {
  regex: "\\.(server|client)\\.ts$",
  message:
    "A plain name in src/ says either side may load the file: name it *.server.ts or *.client.ts if it needs one side's files.",
};
// The pages' code shows its side by its folder or its name (decision 170). The browser's:
const BROWSER = [
  "src/islands/**",
  "src/components/**/*.tsx",
  "src/lib/stores/**",
  "src/lib/ui/**",
  "src/**/*.client.ts",
];
// the page server's alone (Astro's middleware and server entry, the endpoints):
const PAGE_SERVER = [
  "src/**/*.server.ts",
  "src/middleware.ts",
  "src/server/**/*.ts",
  "src/pages/**/*.ts",
];
// ESLint takes a rule's options from the last block that matches a file, so a layer lists every
// pattern its files are held to, not only what it adds.
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
    [into("src", "server", "proxy", "runtime", "scripts", "tests"), NODE_BUILTINS, CLIENT_ONLY],
    ["common/**/*.server.ts", ...TESTS],
  ),
  layer(
    ["common/**/*.server.ts"],
    [into("src", "server", "proxy", "runtime", "scripts", "tests"), CLIENT_ONLY],
  ),
  // The edge proxy runs on workerd and Cloudflare as well as Node.
  layer(
    ["proxy/**/*.ts"],
    [into("src", "server", "runtime", "scripts", "tests"), NODE_BUILTINS, SERVER_ONLY, CLIENT_ONLY],
    TESTS,
  ),
  // The pages never reach into the API's code: they call it. A plain name in src/ is for either
  // side, so it leans on neither side's files.
  layer(
    ["src/**/*.{ts,tsx}"],
    [into("server", "runtime", "scripts", "tests"), ONE_SIDE],
    [...BROWSER, ...PAGE_SERVER, ...TESTS],
  ),
  layer(BROWSER, [into("server", "runtime", "scripts", "tests"), NODE_BUILTINS, SERVER_ONLY]),
  // Run in Node, where the page a *.client.ts file reaches for does not exist.
  layer(PAGE_SERVER, [into("server", "runtime", "scripts", "tests"), CLIENT_ONLY], TESTS),
  // The API is started by the runtime, never the other way round.
  layer(["server/**/*.ts"], [into("src", "runtime", "scripts", "tests"), CLIENT_ONLY], TESTS),
  layer(["runtime/**/*.ts"], [into("scripts", "tests"), CLIENT_ONLY], TESTS),
  layer(["scripts/**/*.ts"], [CLIENT_ONLY], TESTS),
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
