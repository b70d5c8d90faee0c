import { describe, expect, it } from "vitest";
import {
  defaultFinalLevel,
  readCourseCode,
  readLevel,
  readName,
  readSemester,
  readUnit,
} from "./structure-cells.ts";

describe("cells of the academic structure", () => {
  it.each([
    ["3", { value: 3 }],
    [" 10 ", { value: 10 }],
    ["0", "whole number from 1 to 10"],
    ["11", "whole number from 1 to 10"],
    ["2.5", "whole number from 1 to 10"],
    ["-1", "whole number from 1 to 10"],
    ["", "whole number from 1 to 10"],
  ])("unit %j", (text, expected) => {
    const cell = readUnit(text);
    if (typeof expected === "string")
      expect(cell).toEqual({ problem: expect.stringContaining(expected) });
    else expect(cell).toEqual(expected);
  });

  it.each([
    ["1", 1],
    ["2", 2],
    ["First", 1],
    ["SECOND", 2],
    ["3", null],
    ["1st", null],
  ])("semester %j", (text, value) => {
    expect(readSemester(text)).toEqual(
      value ? { value } : { problem: expect.stringContaining("1, 2, first or second") },
    );
  });

  it.each([
    ["100", 100],
    ["500", 500],
    ["600", null],
    ["150", null],
    ["0", null],
  ])("level %j", (text, value) => {
    expect(readLevel(text)).toEqual(
      value ? { value } : { problem: expect.stringContaining("100, 200, 300, 400 or 500") },
    );
  });

  it.each([
    ["BIO 111", "BIO 111"],
    ["bio111", "BIO 111"],
    ["GSE  112", "GSE 112"],
    ["EDU 411P", "EDU 411P"],
    ["111", null],
    ["BIOLOGY", null],
  ])("course code %j", (text, value) => {
    expect(readCourseCode(text)).toEqual(
      value ? { value } : { problem: expect.stringContaining("codes look like BIO 111") },
    );
  });

  it("tidies names and refuses empty ones", () => {
    expect(readName("  School   of Sciences ", "faculty name")).toEqual({
      value: "School of Sciences",
    });
    expect(readName("  ", "faculty name")).toEqual({ problem: "The faculty name is empty." });
  });

  it.each([
    ["NCE Biology/Chemistry", 300],
    ["nce English", 300],
    ["B.Sc.(Ed.) Computer Science Education", 400],
  ])("%s ends at %i level by default", (name, level) => {
    expect(defaultFinalLevel(name)).toBe(level);
  });
});
