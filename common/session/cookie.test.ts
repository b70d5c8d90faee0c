import { describe, expect, it } from "vitest";
import { readSessionToken, readStaffToken, safeNextPath, safeStaffNextPath } from "./cookie.ts";

const token = "abcdefghijklmnopqrstuvwxyzABCDEF0123456789_-";

describe("safeNextPath (where sign-in may lead)", () => {
  it.each([
    [null, "/"],
    ["", "/"],
    ["/payment", "/payment"],
    [
      "/course-reg/print?level=100&session=2024%2F2025",
      "/course-reg/print?level=100&session=2024%2F2025",
    ],
    ["https://evil.example/", "/"],
    ["//evil.example/", "/"],
    ["/\\evil.example", "/"],
    ["javascript:alert(1)", "/"],
    ["/login?next=/login", "/"],
    ["/ok\nSet-Cookie: x=1", "/"],
  ])("%j → %j", (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });
});

describe("readSessionToken", () => {
  it.each([
    [undefined, null],
    ["", null],
    [`portal_session=${token}`, token],
    [`theme=dark; __Host-portal_session=${token}; other=1`, token],
    ["portal_session=short", null],
    [`portal_session=${token}<script>`, null],
    [`not_ours=${token}`, null],
  ])("%j", (header, expected) => {
    expect(readSessionToken(header)).toBe(expected);
  });

  it.each([
    [`__Host-portal_session=${token}`, token],
    [`portal_session=${token}`, null],
  ])("over https accepts only the __Host- cookie: %j", (header, expected) => {
    expect(readSessionToken(header, true)).toBe(expected);
  });
});

describe("the staff cookie", () => {
  it("is read apart from the student's", () => {
    expect(readStaffToken(`portal_session=${token}`)).toBeNull();
    expect(readStaffToken(`portal_session=x; portal_staff=${token}`)).toBe(token);
    expect(readSessionToken(`portal_staff=${token}`)).toBeNull();
    expect(readStaffToken(`portal_staff=${token}`, true)).toBeNull();
    expect(readStaffToken(`__Host-portal_staff=${token}`, true)).toBe(token);
  });

  it.each([
    [null, "/staff"],
    ["/staff/accounts", "/staff/accounts"],
    ["/payment", "/staff"],
    ["/staff/login/code", "/staff"],
    ["//evil.example/staff/", "/staff"],
  ])("staff sign-in may lead from %j to %j", (next, expected) => {
    expect(safeStaffNextPath(next)).toBe(expected);
  });
});
