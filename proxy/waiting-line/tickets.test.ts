import { describe, expect, it } from "vitest";
import { PASS_LIFETIME_SECONDS, TICKET_LIFETIME_SECONDS, ticketSigner } from "./tickets.ts";

const NOW = 1_800_000_000;

describe("the line's signed cookies", () => {
  it("reads back what it signed, and nothing signed under another key", async () => {
    const signer = await ticketSigner("one portal's shared secret, long enough");
    const other = await ticketSigner("another portal's shared secret, long too");
    const ticket = await signer.ticket({ number: 42, issuedAt: NOW, seenThrough: 17 });
    expect(await signer.readTicket(ticket, NOW + 10)).toEqual({
      number: 42,
      issuedAt: NOW,
      seenThrough: 17,
    });
    expect(await other.readTicket(ticket, NOW + 10)).toBeNull();
    const pass = await signer.pass(42, NOW);
    expect(await signer.readPass(pass, NOW + 10)).toEqual({
      ticket: 42,
      expiresAt: NOW + PASS_LIFETIME_SECONDS,
    });
    // A pass is not a ticket, nor a ticket a pass, though both are signed with one key.
    expect(await signer.readTicket(pass, NOW)).toBeNull();
    expect(await signer.readPass(ticket, NOW)).toBeNull();
  });

  it("spends a ticket after its lifetime and a pass after its own", async () => {
    const signer = await ticketSigner("one portal's shared secret, long enough");
    const ticket = await signer.ticket({ number: 7, issuedAt: NOW, seenThrough: 0 });
    expect(await signer.readTicket(ticket, NOW + TICKET_LIFETIME_SECONDS - 1)).not.toBeNull();
    expect(await signer.readTicket(ticket, NOW + TICKET_LIFETIME_SECONDS)).toBeNull();
    // Issued in the future (a clock far ahead signed it): refused.
    expect(await signer.readTicket(ticket, NOW - 3_600)).toBeNull();
    const pass = await signer.pass(7, NOW);
    expect(await signer.readPass(pass, NOW + PASS_LIFETIME_SECONDS - 1)).not.toBeNull();
    expect(await signer.readPass(pass, NOW + PASS_LIFETIME_SECONDS)).toBeNull();
  });

  it("refuses anything malformed without throwing", async () => {
    const signer = await ticketSigner("one portal's shared secret, long enough");
    for (const value of [
      undefined,
      "",
      "t",
      "t.1.2",
      "t.1.2.!!!",
      `t.0.${NOW}.${"A".repeat(43)}`,
      "x".repeat(5000),
    ]) {
      expect(await signer.readTicket(value, NOW)).toBeNull();
      expect(await signer.readPass(value, NOW)).toBeNull();
    }
  });
});
