import { describe, expect, it } from "vitest";
import { CAPACITY_USAGE, parseCapacityArgs } from "./capacity-args.ts";

describe("parseCapacityArgs", () => {
  it("measures every row for 10 s with 20 connections on PGlite, on the demo college alone, by default", () => {
    expect(parseCapacityArgs([])).toEqual({
      duration: 10,
      connections: 20,
      only: undefined,
      database: "pglite",
      out: undefined,
      collegeSize: 0,
      help: false,
    });
  });

  it("takes PostgreSQL from DATABASE_URL unless told otherwise", () => {
    const env = { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test" };
    expect(parseCapacityArgs([], env).database).toBe("postgres");
    expect(parseCapacityArgs(["--database", "pglite"], env).database).toBe("pglite");
    expect(() => parseCapacityArgs(["--database", "mysql"])).toThrow(
      '--database is pglite or postgres, got "mysql"',
    );
  });

  it("measures on a college's database with --college-size", () => {
    expect(
      parseCapacityArgs(["--college-size", "20000", "--only", "api-read, dashboard"]),
    ).toMatchObject({ collegeSize: 20_000, only: ["api-read", "dashboard"] });
    expect(() => parseCapacityArgs(["--college-size", "many"])).toThrow(
      '--college-size must be a whole number ≥ 1, got "many"',
    );
    expect(() => parseCapacityArgs(["--college-size", "0"])).toThrow(
      '--college-size must be a whole number ≥ 1, got "0"',
    );
  });

  it("refuses a duration or connection count that is not a positive number", () => {
    expect(() => parseCapacityArgs(["--duration", "0"])).toThrow(
      '--duration must be a number > 0, got "0"',
    );
    expect(() => parseCapacityArgs(["--connections", "2.5"])).toThrow(
      '--connections must be a whole number, got "2.5"',
    );
    expect(() => parseCapacityArgs(["--conections", "5"])).toThrow("Unknown option");
  });

  it("documents every option in --help", () => {
    expect(parseCapacityArgs(["--help"]).help).toBe(true);
    for (const option of [
      "--duration",
      "--connections",
      "--only",
      "--database",
      "--out",
      "--college-size",
      "--help",
    ])
      expect(CAPACITY_USAGE).toContain(`  ${option} `);
  });
});
