import { describe, expect, it } from "vitest";
import { readPayOnlineForm, remitaWayFor } from "./remita.ts";

describe("readPayOnlineForm", () => {
  it("reads the form that posts to Remita's finalize.reg, with its hidden fields, past the page's other forms", () => {
    const page = `
      <form method="get" action="/payment#pay-title"><input name="payment_option" value="full"></form>
      <section class="card">
        <form method="post" action="http://localhost:4328/remita/ecomm/finalize.reg">
          <input type="hidden" name="merchantId" value="2547916"/>
          <input type="hidden" name="hash" value="ab12"/>
          <input type="hidden" name="rrr" value="123456789012"/>
          <input type="hidden" name="responseurl" value="http://localhost:4321/remita/verify?a=1&amp;b=2"/>
          <button type="submit">Pay online on Remita</button>
        </form>
        <form method="post" action="/payment">
          <input type="hidden" name="action" value="check" />
          <button type="submit">I have paid — check now</button>
        </form>
      </section>`;
    expect(readPayOnlineForm(page)).toEqual({
      action: "http://localhost:4328/remita/ecomm/finalize.reg",
      fields: {
        merchantId: "2547916",
        hash: "ab12",
        rrr: "123456789012",
        responseurl: "http://localhost:4321/remita/verify?a=1&b=2",
      },
    });
  });

  it("answers null for a page without it (a paid RRR, or an error page)", () => {
    expect(readPayOnlineForm('<form method="post" action="/payment"></form>')).toBeNull();
  });
});

describe("remitaWayFor", () => {
  it("sends half the Remita students online and half to a bank, every other bank payer checking as the money arrives", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(remitaWayFor)).toEqual([
      "online",
      "bank-check",
      "online",
      "bank",
      "online",
      "bank-check",
      "online",
      "bank",
    ]);
  });
});
