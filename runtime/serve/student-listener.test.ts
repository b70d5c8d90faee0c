import { describe, expect, it } from "vitest";
import { carriesASession } from "./student-listener.ts";

describe("carriesASession: who goes first in a busy portal's line", () => {
  const onHttps = carriesASession("https://portal.college.example");
  const onHttp = carriesASession("http://localhost:4321");
  const cookie = (value?: string) => ({ headers: value === undefined ? {} : { cookie: value } });

  it.each([
    ["a student's session", "__Host-portal_session=abc", true],
    ["a staff member's session among other cookies", "theme=dark; __Host-portal_staff=abc", true],
    ["no cookie at all", undefined, false],
    ["only a flash message", "portal_flash=signed-out", false],
    ["a cookie whose name merely ends like the session's", "x__Host-portal_session=abc", false],
    ["the plain-HTTP name on an HTTPS portal", "portal_session=abc", false],
  ])("on HTTPS, %s: %s", (_what, value, expected) => {
    expect(onHttps(cookie(value))).toBe(expected);
  });

  it("reads the plain-HTTP names on a development portal", () => {
    expect(onHttp(cookie("portal_session=abc"))).toBe(true);
    expect(onHttp(cookie("portal_staff=abc"))).toBe(true);
    expect(onHttp(cookie("__Host-portal_session=abc"))).toBe(false);
  });
});
