import { describe, expect, it } from "vitest";
import type { ServerApi } from "../api/server-api.server.ts";
import { handlePaymentPost } from "./payment-form.server.ts";

// A stand-in for the API that answers the card payment's initialisation with `answer`.
const apiAnswering = (answer: unknown) => ({ send: async () => answer }) as unknown as ServerApi;

function cardForm() {
  const form = new FormData();
  for (const [name, value] of Object.entries({
    action: "card",
    student_id: "7",
    payment_option: "full",
    payment_level: "100",
    payment_session: "2024/2025",
  })) {
    form.set(name, value);
  }
  return form;
}

describe("the card form's answer", () => {
  it("goes on to the checkout address the API gave", async () => {
    const checkout = "https://checkout.paystack.com/abc123";
    expect(
      await handlePaymentPost(
        apiAnswering({ status: true, authorization_url: checkout, reference: "CCE-1" }),
        cardForm(),
      ),
    ).toEqual({ checkout });
  });

  it.each(["javascript:alert(1)", "data:text/html,hi", "//elsewhere.example/x", ""])(
    "refuses to put %j in the page's refresh and link",
    async (address) => {
      const outcome = await handlePaymentPost(
        apiAnswering({ status: true, authorization_url: address, reference: "CCE-1" }),
        cardForm(),
      );
      expect(outcome).toMatchObject({
        status: 502,
        tone: "error",
        message: "We could not start the payment with Paystack. Please try again in a few minutes.",
      });
    },
  );

  it("says 'Payment already made' when the fee is paid", async () => {
    expect(
      await handlePaymentPost(
        apiAnswering({ status: "success", message: "Payment already made" }),
        cardForm(),
      ),
    ).toMatchObject({ message: "Payment already made", status: 200 });
  });
});

describe("the RRR's cancel form", () => {
  function cancelForm(fields: Record<string, string>) {
    const form = new FormData();
    for (const [name, value] of Object.entries({ action: "cancel", ...fields }))
      form.set(name, value);
    return form;
  }
  const recording = () => {
    const sent: string[] = [];
    const api = {
      send: async (_method: string, path: string) => (sent.push(path), { status: "success" }),
    } as unknown as ServerApi;
    return { api, sent };
  };

  it("asks first, and tells the API nothing until confirmed", async () => {
    const { api, sent } = recording();
    expect(await handlePaymentPost(api, cancelForm({ reference: "CCE-1" }))).toEqual({
      confirmCancel: "CCE-1",
    });
    expect(sent).toEqual([]);
  });

  it("cancels once confirmed, and shows the payment as it now stands", async () => {
    const { api, sent } = recording();
    expect(
      await handlePaymentPost(api, cancelForm({ reference: "CCE-1", confirm: "yes" })),
    ).toEqual({ redirect: "/payment?reference=CCE-1" });
    expect(sent).toEqual(["/student/school-fee/CCE-1/cancel"]);
  });

  it("refuses without a reference", async () => {
    const { api, sent } = recording();
    expect(await handlePaymentPost(api, cancelForm({ confirm: "yes" }))).toMatchObject({
      status: 400,
      message: "No Payment Reference Found",
    });
    expect(sent).toEqual([]);
  });
});
