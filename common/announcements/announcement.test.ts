import { describe, expect, it } from "vitest";
import { announcementState, plainText } from "./announcement.ts";

describe("plainText", () => {
  it.each([
    ["Windows line ends become one kind", "a\r\nb\rc", "a\nb\nc"],
    ["three or more line breaks become one blank line", "a\n\n\n\nb", "a\n\nb"],
    ["tabs become spaces", "a\tb", "a b"],
    ["control characters go", "a\u0000b\u0007c\u001bd\u007f", "abcd"],
    ["trailing spaces on each line go", "a  \nb\u00a0", "a\nb"],
    ["the ends are trimmed", "\n  hello  \n", "hello"],
    [
      "markup stays as typed: pages print it as text",
      "<b>hi</b> & <script>",
      "<b>hi</b> & <script>",
    ],
  ])("%s", (_case, input, output) => {
    expect(plainText(input)).toBe(output);
  });
});

describe("announcementState on 2025-01-15", () => {
  it.each([
    [null, null, "live"],
    ["2025-01-15", null, "live"],
    ["2025-01-16", null, "scheduled"],
    [null, "2025-01-15", "live"],
    [null, "2025-01-14", "ended"],
    ["2025-01-10", "2025-01-20", "live"],
  ] as const)("from %s until %s is %s", (from, until, state) => {
    expect(announcementState({ show_from: from, show_until: until }, "2025-01-15")).toBe(state);
  });
});
