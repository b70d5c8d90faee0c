import { describe, expect, it } from "vitest";
import { parseLoadArgs } from "./args.ts";

describe("parseLoadArgs", () => {
  it("plays registration week by default: 10,000 students over 10 minutes, starting its own portal on PGlite", () => {
    expect(parseLoadArgs([])).toEqual({
      scenario: "registration",
      gateways: ["paystack"],
      faults: false,
      students: 10_000,
      minutes: 10,
      think: 1,
      shape: "deadline",
      perAddress: 50,
      timeoutSeconds: 30,
      oneByOne: false,
      burst: 0,
      lineMaxPerSecond: undefined,
      target: undefined,
      databaseUrl: undefined,
      port: undefined,
      reportPath: "default",
      keep: false,
      collegeSize: 0,
      help: false,
    });
  });

  it("adds a college's students to the database it makes when asked, and only then", () => {
    expect(parseLoadArgs(["--college-size", "20000"]).collegeSize).toBe(20_000);
    expect(
      parseLoadArgs(["--college-size", "200"], {
        DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test",
      }),
    ).toMatchObject({ collegeSize: 200, databaseUrl: "postgres://postgres@127.0.0.1:5432/test" });
    for (const bad of ["0", "1.5", "lots", ""])
      expect(() => parseLoadArgs(["--college-size", bad])).toThrow(
        `--college-size must be a whole number ≥ 1, got "${bad}"`,
      );
    expect(() => parseLoadArgs(["--college-size", "1000001"])).toThrow(
      '--college-size is at most 1,000,000, got "1000001"',
    );
    expect(() =>
      parseLoadArgs([
        "--college-size",
        "20000",
        "--target",
        "http://localhost:4321",
        "--database-url",
        "postgres://u@localhost/portal",
      ]),
    ).toThrow("--college-size fills the database the simulation makes; drop it with --target");
  });

  it("scales down, takes PostgreSQL from DATABASE_URL, and can write no file", () => {
    const args = parseLoadArgs(
      ["--students", "200", "--minutes", "1", "--think", "0.1", "--no-report"],
      {
        DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test",
      },
    );
    expect(args).toMatchObject({
      students: 200,
      minutes: 1,
      think: 0.1,
      reportPath: null,
      databaseUrl: "postgres://postgres@127.0.0.1:5432/test",
    });
  });

  it("targets a running portal on this machine with its database", () => {
    const args = parseLoadArgs([
      "--target",
      "http://localhost:4321",
      "--database-url",
      "postgresql://u@db/portal",
    ]);
    expect(args).toMatchObject({
      target: "http://localhost:4321",
      databaseUrl: "postgresql://u@db/portal",
    });
  });

  it("plays results day when asked, and refuses a scenario it does not know", () => {
    expect(parseLoadArgs(["--scenario", "results-day"]).scenario).toBe("results-day");
    expect(() => parseLoadArgs(["--scenario", "exams"])).toThrow(
      '--scenario must be one of registration, results-day, got "exams"',
    );
  });

  it("pays through Remita, or both in turn, and adds faults", () => {
    expect(parseLoadArgs(["--gateway", "remita"]).gateways).toEqual(["remita"]);
    expect(parseLoadArgs(["--gateway", "paystack,remita"]).gateways).toEqual([
      "paystack",
      "remita",
    ]);
    expect(
      parseLoadArgs(["--gateway", "remita,paystack", "--faults"], {
        DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test",
      }),
    ).toMatchObject({ gateways: ["remita", "paystack"], faults: true });
    // On PGlite too: everything but the killed worker.
    expect(parseLoadArgs(["--gateway", "remita", "--faults"]).faults).toBe(true);
  });

  it("lets students come one by one, for the portal's CPU per step", () => {
    expect(parseLoadArgs(["--students", "100", "--one-by-one"])).toMatchObject({
      students: 100,
      oneByOne: true,
    });
  });

  it("adds a burst of students and caps the line's admissions of the portal it starts", () => {
    expect(
      parseLoadArgs(["--students", "200", "--burst", "60", "--line-max-per-second", "2.5"]),
    ).toMatchObject({ students: 200, burst: 60, lineMaxPerSecond: 2.5 });
  });

  it.each([
    [
      ["--target", "http://localhost:4321", "--database-url", "postgres://db/x", "--one-by-one"],
      /--one-by-one/,
    ],
    [["--burst", "0"], /--burst must be a whole number/],
    [["--burst", "10", "--one-by-one"], /--burst and --one-by-one/],
    [["--line-max-per-second", "0"], /--line-max-per-second must be a number > 0/],
    [
      [
        "--target",
        "http://localhost:4321",
        "--database-url",
        "postgres://db/x",
        "--line-max-per-second",
        "3",
      ],
      /drop it with --target/,
    ],
    [["--students", "0"], /--students/],
    [["--students", "1.5"], /--students/],
    [["--minutes", "-1"], /--minutes/],
    [["--think", "fast"], /--think/],
    [["--shape", "spike"], /--shape/],
    [["--per-address", "none"], /--per-address/],
    [["--port", "65530"], /--port/],
    [["--database-url", "mysql://db/x"], /postgres/],
    [["--target", "http://localhost:4321"], /--database-url/],
    [
      ["--target", "http://portal.example:4321", "--database-url", "postgres://db/x"],
      /this machine/,
    ],
    [["--report", "x.md", "--no-report"], /contradict/],
    [["--frobnicate"], /frobnicate/],
    [["--gateway", "flutterwave"], /--gateway must be/],
    [["--gateway", "remita,remita"], /--gateway must be/],
    [["--gateway", "remita", "--scenario", "results-day"], /nobody pays/],
    [["--faults", "--database-url", "postgres://db/x"], /add --gateway remita/],
    [
      [
        "--gateway",
        "remita",
        "--faults",
        "--target",
        "http://localhost:4321",
        "--database-url",
        "postgres://db/x",
      ],
      /drop --target/,
    ],
    [
      ["--gateway", "remita", "--faults", "--database-url", "postgres://db/x", "--one-by-one"],
      /--one-by-one/,
    ],
  ])("refuses %j", (argv, message) => {
    expect(() => parseLoadArgs(argv)).toThrow(message);
  });
});
