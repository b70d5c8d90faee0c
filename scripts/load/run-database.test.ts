import { describe, expect, it } from "vitest";
import { databaseOnThisMachine } from "./run-database.ts";

describe("databaseOnThisMachine", () => {
  it.each([
    "postgres://postgres@127.0.0.1:5432/test",
    "postgres://postgres@localhost/test",
    "postgres://postgres@[::1]:5432/test",
    "postgres://postgres@localhost/test?host=/var/run/postgresql",
    "postgresql://portal@ignored/portal?host=%2Fvar%2Frun%2Fpostgresql",
  ])("%s is on this machine", (url) => {
    expect(databaseOnThisMachine(url)).toBe(true);
  });

  it.each([
    "postgres://portal@db.college.edu.ng/portal",
    "postgres://portal@10.0.0.5:5432/portal",
    "postgres://u@db/x?host=db2",
  ])("%s is elsewhere", (url) => {
    expect(databaseOnThisMachine(url)).toBe(false);
  });
});
