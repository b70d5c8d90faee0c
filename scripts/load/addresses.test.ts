import { isIPv4 } from "node:net";
import { describe, expect, it } from "vitest";
import { FAILURES_PER_CLIENT } from "../../server/auth/sign-in-limits.ts";
import { loopbackAddress, spreadStudents } from "./addresses.ts";

describe("loopbackAddress", () => {
  it("counts through 127.1.0.1 … 127.1.0.254, then the next block", () => {
    expect(loopbackAddress(0)).toBe("127.1.0.1");
    expect(loopbackAddress(253)).toBe("127.1.0.254");
    expect(loopbackAddress(254)).toBe("127.1.1.1");
    expect(loopbackAddress(254 * 256)).toBe("127.2.0.1");
  });

  it("gives distinct loopback addresses, never the portal's own 127.0.0.1", () => {
    const addresses = Array.from({ length: 70_000 }, (_, i) => loopbackAddress(i));
    expect(new Set(addresses).size).toBe(addresses.length);
    const unfit = addresses.filter(
      (address) =>
        !isIPv4(address) ||
        !address.startsWith("127.") ||
        address.startsWith("127.0.") ||
        /\.(0|255)$/.test(address),
    );
    expect(unfit).toEqual([]);
  });
});

describe("spreadStudents", () => {
  it("never puts more than the asked number of students on one address", () => {
    const { addresses, addressOf } = spreadStudents(10_000, 50);
    expect(addresses).toHaveLength(200);
    const perAddress = new Map<string, number>();
    for (let student = 0; student < 10_000; student++) {
      perAddress.set(addressOf(student), (perAddress.get(addressOf(student)) ?? 0) + 1);
    }
    expect(Math.max(...perAddress.values())).toBe(50);
    expect(perAddress.size).toBe(200);
  });

  it("sends students who arrive one after another from different addresses", () => {
    const { addressOf } = spreadStudents(1_000, 50);
    expect(new Set([0, 1, 2, 3, 4].map(addressOf)).size).toBe(5);
  });

  it("uses one address for a run that fits on one", () => {
    expect(spreadStudents(20, 50).addresses).toEqual(["127.1.0.1"]);
  });

  it("refuses more students per address than the sign-in limit per client network", () => {
    expect(() => spreadStudents(1_000, FAILURES_PER_CLIENT.limit + 1)).toThrow(/sign-in limit/);
    expect(spreadStudents(1_000, FAILURES_PER_CLIENT.limit).addresses).toHaveLength(
      Math.ceil(1_000 / FAILURES_PER_CLIENT.limit),
    );
    expect(() => spreadStudents(10, 0)).toThrow(/whole number/);
  });
});
