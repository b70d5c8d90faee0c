import { describe, expect, it } from "vitest";
import {
  findNigerianState,
  isLgaOf,
  isNigerianState,
  NIGERIAN_STATE_NAMES,
  PlaceError,
} from "./nigeria.ts";

const FCT = "Federal Capital Territory";

describe("NIGERIAN_STATE_NAMES", () => {
  it("lists 37 names A–Z, with the FCT by its full name", () => {
    expect(NIGERIAN_STATE_NAMES).toHaveLength(37);
    expect(NIGERIAN_STATE_NAMES).toEqual([...NIGERIAN_STATE_NAMES].sort());
    expect(NIGERIAN_STATE_NAMES).toContain(FCT);
    expect(NIGERIAN_STATE_NAMES[0]).toBe("Abia");
    expect(NIGERIAN_STATE_NAMES.at(-1)).toBe("Zamfara");
  });
});

describe("findNigerianState", () => {
  it.each([
    ["fct", FCT],
    ["F.C.T", FCT],
    ["f.c.t.", FCT],
    [" f c t ", FCT],
    ["Abuja", FCT],
    ["ABUJA", FCT],
    ["  abuja\t", FCT],
    ["federal capital territory", FCT],
    ["  lagos ", "Lagos"],
    ["AKWA IBOM", "Akwa Ibom"],
    ["Cross river", "Cross River"],
    ["cross-river", "Cross River"],
    ["Nasarawa", "Nasarawa"],
  ])("finds %j as %s", (input, expected) => {
    expect(findNigerianState(input).name).toBe(expected);
  });

  it("returns the districts and LGAs", () => {
    const kano = findNigerianState("Kano");
    expect(kano.lgas).toHaveLength(44);
    expect(kano.senatorialDistricts).toEqual(["Kano Central", "Kano North", "Kano South"]);
  });

  it("returns a copy, so a caller cannot change the shared data", () => {
    findNigerianState("Lagos").lgas.push("Atlantis");
    expect(findNigerianState("Lagos").lgas).toHaveLength(20);
  });

  it.each(["", " ", "\t\n"])("rejects %j as 'Invalid Nigeria State'", (input) => {
    expect(() => findNigerianState(input)).toThrow(new PlaceError("Invalid Nigeria State"));
  });

  it.each([
    ["Lagoss", "Lagoss"],
    ["Texas", "Texas"],
    ["  Abuja Municipal  ", "Abuja Municipal"],
    ["fct abuja", "fct abuja"],
  ])("rejects %j as unknown", (input, shown) => {
    const error = new PlaceError(`"${shown}" is not a Nigerian state. Choose one from the list.`);
    expect(() => findNigerianState(input)).toThrow(error);
    expect(() => findNigerianState(input)).toThrow(PlaceError);
  });
});

describe("isNigerianState", () => {
  it.each([
    ["Ogun", true],
    [" fct ", true],
    ["ABUJA", true],
    ["", false],
    ["Ogunn", false],
    ["Ghana", false],
  ])("%j → %s", (input, expected) => {
    expect(isNigerianState(input)).toBe(expected);
  });
});

describe("isLgaOf", () => {
  it.each([
    ["Lagos", "Ikeja", true],
    ["lagos", "  ikeja ", true],
    ["Lagos", "Ibeju Lekki", true],
    ["Kano", "KANO MUNICIPAL", true],
    ["fct", "Bwari", true],
    ["Abuja", "Abuja Municipal Area Council", true],
    ["Rivers", "Obio/Akpor", true],
    ["Bauchi", "Jama'are", true],
    ["Oyo", "Surulere", true],
    ["Lagos", "Surulere", true],
    ["Lagos", "Ibadan North", false],
    ["Kano", "Ikeja", false],
    ["Lagos", "", false],
    ["Lagos", "Lagos", false],
    ["Texas", "Ikeja", false],
    ["", "Ikeja", false],
  ])("%j, %j → %s", (state, lga, expected) => {
    expect(isLgaOf(state, lga)).toBe(expected);
  });
});
