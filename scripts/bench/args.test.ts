import { describe, expect, it } from "vitest";
import { parseBenchArgs } from "./args.ts";

describe("parseBenchArgs", () => {
  it("measures /login and / three times by default, starting its own portal", () => {
    expect(parseBenchArgs([])).toEqual({
      url: undefined,
      pages: ["/login", "/"],
      runs: 5,
      strict: false,
      help: false,
    });
  });

  it("takes a running portal, a page list, a run count and --strict", () => {
    const args = parseBenchArgs([
      "--url",
      "http://localhost:4321",
      "--pages",
      "/login, /,/payment",
    ]);
    expect(args).toMatchObject({
      url: "http://localhost:4321",
      pages: ["/login", "/", "/payment"],
    });
    expect(parseBenchArgs(["--runs", "5", "--strict"])).toMatchObject({ runs: 5, strict: true });
  });

  it.each([
    [["--runs", "0"], /--runs/],
    [["--url", "localhost:4321"], /--url/],
    [["--pages", "login"], /--pages/],
    [["--frobnicate"], /frobnicate/],
  ])("rejects %j", (argv, message) => {
    expect(() => parseBenchArgs(argv)).toThrow(message);
  });
});
