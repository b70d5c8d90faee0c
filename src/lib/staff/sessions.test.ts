import { describe, expect, it } from "vitest";
import { nextSessionName, RegistrationWindowRequest, SessionName } from "./sessions.ts";

describe("session names and registration windows", () => {
  it.each([
    ["2025/2026", true],
    [" 2025/2026 ", true],
    ["2025/2027", false],
    ["2025-2026", false],
    ["25/26", false],
  ])("%j is a session name: %s", (name, valid) => {
    expect(SessionName.safeParse(name).success).toBe(valid);
  });

  it("suggests the session after the newest", () => {
    expect(nextSessionName("2024/2025", 2030)).toBe("2025/2026");
    expect(nextSessionName(undefined, 2030)).toBe("2030/2031");
  });

  it("reads empty dates as none and refuses a closing date before the opening date", () => {
    expect(RegistrationWindowRequest.parse({ course_modifiable: true, opens_on: "", closes_on: "2025-10-31" })).toEqual({
      course_modifiable: true,
      opens_on: null,
      closes_on: "2025-10-31",
    });
    const refused = RegistrationWindowRequest.safeParse({ course_modifiable: true, opens_on: "2025-11-01", closes_on: "2025-10-31" });
    expect(refused.error?.issues[0]?.message).toBe("The closing date must be on or after the opening date.");
    expect(RegistrationWindowRequest.safeParse({ course_modifiable: true, opens_on: "31/10/2025" }).success).toBe(false);
  });
});
