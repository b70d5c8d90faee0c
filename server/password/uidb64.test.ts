import { describe, expect, it } from "vitest";
import { decodeUid, encodeUid } from "./uidb64.ts";

describe("encodeUid", () => {
  it.each([
    [1, "MQ"],
    [2, "Mg"],
    [42, "NDI"],
    [2_147_483_647, "MjE0NzQ4MzY0Nw"],
  ])("writes student %i as %s, as Django does", (id, uidb64) => {
    expect(encodeUid(id)).toBe(uidb64);
    expect(decodeUid(uidb64)).toBe(id);
  });
});

describe("decodeUid", () => {
  it.each([
    ["empty", ""],
    ["not base64url", "M+g="],
    ["padding", "Mg=="],
    ["zero", encodeUid(0)],
    ["a leading zero", Buffer.from("07").toString("base64url")],
    ["a negative id", Buffer.from("-2").toString("base64url")],
    ["letters", Buffer.from("abc").toString("base64url")],
    ["beyond the id range", Buffer.from("2147483648").toString("base64url")],
    ["overlong", "M".repeat(40)],
    ["a non-canonical spelling of 2", "Mh"],
  ])("refuses %s", (_case, uidb64) => {
    expect(decodeUid(uidb64)).toBeNull();
  });
});
