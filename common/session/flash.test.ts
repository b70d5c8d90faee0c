import { describe, expect, it } from "vitest";
import { flashMessage } from "./flash.ts";

describe("flashMessage", () => {
  it.each([
    ["signed-in", "Login successful"],
    [undefined, null],
    ["", null],
    ["<script>alert(1)</script>", null],
    ["toString", null],
  ])("%s", (value, expected) => {
    expect(flashMessage(value)).toBe(expected);
  });
});
