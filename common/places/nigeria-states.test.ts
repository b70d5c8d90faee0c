import { describe, expect, it } from "vitest";
import { NIGERIAN_STATES } from "./nigeria-states.ts";

// Two spellings that differ only in case, spacing or hyphens are the same place.
const sameName = (name: string) => name.toLowerCase().replace(/[\s-]+/g, " ");

const byName = new Map(NIGERIAN_STATES.map((state) => [state.name, state]));

describe("NIGERIAN_STATES", () => {
  it("has the 36 states and the FCT, each once", () => {
    expect(NIGERIAN_STATES).toHaveLength(37);
    expect(byName.size).toBe(37);
    expect(byName.has("Federal Capital Territory")).toBe(true);
  });

  it("has 774 LGAs in total", () => {
    const total = NIGERIAN_STATES.reduce((sum, state) => sum + state.lgas.length, 0);
    expect(total).toBe(774);
  });

  it.each([
    ["Abia", 17],
    ["Akwa Ibom", 31],
    ["Bayelsa", 8],
    ["Borno", 27],
    ["Delta", 25],
    ["Ebonyi", 13],
    ["Federal Capital Territory", 6],
    ["Gombe", 11],
    ["Imo", 27],
    ["Jigawa", 27],
    ["Kano", 44],
    ["Katsina", 34],
    ["Lagos", 20],
    ["Niger", 25],
    ["Osun", 30],
    ["Oyo", 33],
    ["Rivers", 23],
    ["Zamfara", 14],
  ])("%s has %i LGAs", (name, count) => {
    expect(byName.get(name)?.lgas).toHaveLength(count);
  });

  describe.each(NIGERIAN_STATES.map((state) => [state.name, state] as const))("%s", (_, state) => {
    it("has no LGA listed twice, even in another spelling", () => {
      const names = state.lgas.map(sameName);
      expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    });

    it("has no blank or untrimmed names", () => {
      for (const name of [state.name, ...state.senatorialDistricts, ...state.lgas]) {
        expect(name).toMatch(/^\S(.*\S)?$/);
        expect(name).not.toMatch(/\s{2}/);
      }
    });

    it("has three senatorial districts (the FCT has one)", () => {
      const expected = state.name === "Federal Capital Territory" ? 1 : 3;
      expect(new Set(state.senatorialDistricts).size).toBe(expected);
      expect(state.senatorialDistricts).toHaveLength(expected);
    });
  });
});
