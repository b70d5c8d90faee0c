import { describe, expect, it } from "vitest";
import {
  matricNumbersFrom,
  mayBecomeCurrent,
  nextSessionName,
  RegistrationWindowRequest,
  SessionName,
} from "./sessions.ts";

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
    expect(
      RegistrationWindowRequest.parse({
        course_modifiable: true,
        opens_on: "",
        closes_on: "2025-10-31",
      }),
    ).toEqual({
      course_modifiable: true,
      opens_on: null,
      closes_on: "2025-10-31",
    });
    const refused = RegistrationWindowRequest.safeParse({
      course_modifiable: true,
      opens_on: "2025-11-01",
      closes_on: "2025-10-31",
    });
    expect(refused.error?.issues[0]?.message).toBe(
      "The closing date must be on or after the opening date.",
    );
    expect(
      RegistrationWindowRequest.safeParse({ course_modifiable: true, opens_on: "31/10/2025" })
        .success,
    ).toBe(false);
  });
});

describe("holding students back and making a session current", () => {
  it.each([
    ["one a line, with blanks and spaces", "COE/1\n\n  COE/2  \r\n", ["COE/1", "COE/2"]],
    [
      "a one-column CSV with its header and quotes",
      '\uFEFFmatric_no\n"COE/1"\nCOE/2\n',
      ["COE/1", "COE/2"],
    ],
    ["a pasted row, commas and semicolons", "COE/1, COE/2;COE/3", ["COE/1", "COE/2", "COE/3"]],
    ["repeats whatever their case", "COE/1\ncoe/1\nCOE/2", ["COE/1", "COE/2"]],
    ["nothing", "  \n ", []],
  ])("reads matriculation numbers from %s", (_, text, numbers) => {
    expect(matricNumbersFrom(text)).toEqual(numbers);
  });

  it.each([
    [{ name: "2025/2026", is_current: false }, "2024/2025", true],
    [{ name: "2023/2024", is_current: false }, "2024/2025", false],
    [{ name: "2024/2025", is_current: true }, "2024/2025", false],
    [{ name: "2019/2020", is_current: false }, null, true],
  ])("offers %j to be made current when %s is current: %s", (session, current, offered) => {
    expect(mayBecomeCurrent(session, current)).toBe(offered);
  });
});
