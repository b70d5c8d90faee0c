import { describe, expect, it } from "vitest";
import { typedPhone } from "./typed-phone.ts";

describe("typedPhone", () => {
  it.each([
    ["08031234567", "08031234567"],
    [" +234 803 123 4567 ", "+234 803 123 4567"],
    ["(0803) 123-4567", "(0803) 123-4567"],
    ["", null],
    ["CCE/2023/BIO/0042", null],
    ['0803"><script>', null],
    ["0".repeat(21), null],
    [undefined, null],
    [["08031234567"], null],
  ])("%j", (value, expected) => {
    expect(typedPhone(value)).toBe(expected);
  });
});
