import { describe, expect, it } from "vitest";
import {
  isOfflineChannel,
  OFFLINE_CHANNELS,
  PAYMENT_CHANNELS,
  unhandledChannel,
} from "./channels.ts";

describe("payment channels", () => {
  it("counts bank transfer and USSD as offline, and nothing else", () => {
    expect(PAYMENT_CHANNELS.filter(isOfflineChannel)).toEqual([...OFFLINE_CHANNELS]);
    // What a gateway may report once paid, and a card attempt before it is paid.
    for (const channel of ["card", "bank", "qr", "mobile_money", "", null]) {
      expect(isOfflineChannel(channel)).toBe(false);
    }
  });

  it("fails loudly if a switch meets a channel it was not written for", () => {
    expect(() => unhandledChannel("cash" as never)).toThrow("payment channel cash is not handled");
  });
});
