import { describe, expect, it } from "vitest";
import {
  channelsThrough,
  gatewayOfChannel,
  isOfflineChannel,
  OFFLINE_CHANNELS,
  PAYMENT_CHANNELS,
  unhandledChannel,
} from "./channels.ts";
import { groupedRrr } from "./rrr.ts";

describe("payment channels", () => {
  it("counts bank transfer, USSD and a Remita RRR as offline, and nothing else", () => {
    expect(PAYMENT_CHANNELS.filter(isOfflineChannel)).toEqual([...OFFLINE_CHANNELS]);
    expect(OFFLINE_CHANNELS).toEqual(["bank_transfer", "ussd", "remita"]);
    // What a gateway may report once paid, and a card attempt before it is paid.
    for (const channel of ["card", "bank", "qr", "mobile_money", "", null]) {
      expect(isOfflineChannel(channel)).toBe(false);
    }
  });

  it("names the gateway of each channel, and the channels each set of gateways offers", () => {
    expect(PAYMENT_CHANNELS.map(gatewayOfChannel)).toEqual([
      "paystack",
      "paystack",
      "paystack",
      "remita",
    ]);
    expect(channelsThrough(["paystack"])).toEqual(["card", "bank_transfer", "ussd"]);
    expect(channelsThrough(["remita"])).toEqual(["remita"]);
    expect(channelsThrough(["remita", "paystack"])).toEqual(PAYMENT_CHANNELS);
    expect(channelsThrough([])).toEqual([]);
  });

  it("fails loudly if a switch meets a channel it was not written for", () => {
    expect(() => unhandledChannel("cash" as never)).toThrow("payment channel cash is not handled");
  });
});

describe("groupedRrr", () => {
  it("shows a twelve-digit RRR in groups of four, and anything else as it is", () => {
    expect(groupedRrr("140007752615")).toBe("1400-0775-2615");
    expect(groupedRrr("14000775261")).toBe("14000775261");
    expect(groupedRrr("RRR1")).toBe("RRR1");
  });
});
