import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeSchedule } from "../db/schema.ts";
import type { GatewayName } from "./gateway.ts";
import { choice, createPaymentsKit, type PaymentsKit } from "./payments.test-kit.ts";
import { createTranscriptsKit } from "../transcripts/transcripts.test-kit.ts";

// Which gateway a new payment may use (decision 189): its channel's, if the portal offers it and
// the bursar allows it for the fee; otherwise a 400 that says which ways are open, and nothing
// is created.

type Who = Awaited<ReturnType<PaymentsKit["newStudent"]>>;

/** Narrows the seeded 100-level 2024/2025 fee of `option` to `gateways`, as the bursar would. */
async function allow(kit: PaymentsKit, option: string, gateways: GatewayName[]) {
  await kit.api.db
    .update(feeSchedule)
    .set({ allowedGateways: gateways })
    .where(
      and(
        eq(feeSchedule.paymentOption, option),
        eq(feeSchedule.level, 100),
        eq(feeSchedule.session, "2024/2025"),
      ),
    );
}

const quote = async (kit: PaymentsKit, who: Who, option: string) =>
  (
    await kit.post("/student/generate-payment", who.token, {
      payment_name: "schoolfees",
      ...choice(option),
    })
  ).json();

const start = (kit: PaymentsKit, who: Who, option: string, channel: string) =>
  channel === "card"
    ? kit.post("/student/school-fee", who.token, { student_id: who.student.id, ...choice(option) })
    : kit.post("/student/school-fee/offline", who.token, {
        student_id: who.student.id,
        ...choice(option),
        channel,
        ussd_bank: "737",
      });

async function paymentsOf(kit: Pick<PaymentsKit, "api">, who: Who) {
  const info = await (
    await kit.api.request(`/student/payment-info/${who.student.id}`, { token: who.token })
  ).json();
  return info.data.school_fee_payment as unknown[];
}

describe("on a portal offering Paystack and Remita", () => {
  let kit: PaymentsKit;
  beforeAll(async () => {
    kit = await createPaymentsKit({ offeredGateways: ["paystack", "remita"] });
    await allow(kit, "full", ["remita"]);
    await allow(kit, "part", ["paystack"]);
  });
  afterAll(() => kit.api.close());

  it("quotes each fee with the gateways it may be paid through", async () => {
    const me = await kit.newStudent();
    expect((await quote(kit, me, "full")).data).toEqual({ amount: 120_000, gateways: ["remita"] });
    expect((await quote(kit, me, "part")).data).toEqual({
      amount: 72_000,
      gateways: ["paystack"],
    });
  });

  it.each(["card", "bank_transfer", "ussd"])(
    "refuses %s for a fee the bursar takes through Remita only, and creates nothing",
    async (channel) => {
      const me = await kit.newStudent();
      const response = await start(kit, me, "full", channel);
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe(
        "This fee is paid through Remita only: choose Pay with Remita.",
      );
      expect(await paymentsOf(kit, me)).toEqual([]);
    },
  );

  it("refuses Remita for a fee the bursar takes through Paystack only, and creates nothing", async () => {
    const me = await kit.newStudent();
    const response = await start(kit, me, "part", "remita");
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(
      "This fee is paid through Paystack only: pay by card, bank transfer or USSD.",
    );
    expect(await paymentsOf(kit, me)).toEqual([]);
  });

  it("starts a card payment through Paystack for a fee allowed Paystack", async () => {
    const me = await kit.newStudent();
    const response = await start(kit, me, "part", "card");
    expect(response.status).toBe(200);
    const { reference } = await response.json();
    expect((await kit.paymentRow(reference)).gateway).toBe("paystack");
  });
});

describe("on a portal offering Paystack alone", () => {
  let kit: PaymentsKit;
  beforeAll(async () => {
    kit = await createPaymentsKit();
    // Allowed Remita only while the portal offered it; the portal no longer does.
    await allow(kit, "full", ["remita"]);
  });
  afterAll(() => kit.api.close());

  it("refuses Remita for any fee, and creates nothing", async () => {
    const me = await kit.newStudent();
    const response = await start(kit, me, "part", "remita");
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(
      "Remita is not offered on this portal. Choose another way to pay.",
    );
    expect(await paymentsOf(kit, me)).toEqual([]);
  });

  it("says a fee allowed only a gateway it does not offer cannot be paid, at the quote and at the start", async () => {
    const me = await kit.newStudent();
    const message =
      "This fee can only be paid through Remita, which this portal does not offer at the moment. Ask the bursary.";
    const quoted = await kit.post("/student/generate-payment", me.token, {
      payment_name: "schoolfees",
      ...choice("full"),
    });
    expect(quoted.status).toBe(400);
    expect((await quoted.json()).message).toBe(message);
    for (const channel of ["card", "bank_transfer", "remita"]) {
      const response = await start(kit, me, "full", channel);
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe(message);
    }
    expect(await paymentsOf(kit, me)).toEqual([]);
  });

  it("quotes every other fee with Paystack, as before", async () => {
    const me = await kit.newStudent();
    expect((await quote(kit, me, "part")).data).toEqual({
      amount: 72_000,
      gateways: ["paystack"],
    });
  });
});

describe("the transcript fee", () => {
  it("is refused at the checkout when the bursar allows it only a gateway the portal does not offer", async () => {
    const kit = await createTranscriptsKit();
    try {
      expect((await kit.setFee("5,000")).status).toBe(200);
      await kit.api.db
        .update(feeSchedule)
        .set({ allowedGateways: ["remita"] })
        .where(eq(feeSchedule.kind, "transcript"));
      const me = await kit.newStudent();
      const id = await kit.requested(me.token);
      const response = await kit.pay(me.token, id);
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe(
        "This fee can only be paid through Remita, which this portal does not offer at the moment. Ask the bursary.",
      );
    } finally {
      await kit.api.close();
    }
  });
});

describe("the transcript fee, on a portal offering Paystack and Remita", () => {
  it("is refused, and nothing created, when the bursar takes it through Remita only", async () => {
    const kit = await createTranscriptsKit({ offeredGateways: ["paystack", "remita"] });
    try {
      expect((await kit.setFee("5,000")).status).toBe(200);
      const narrowed = await kit.api.request("/staff/fees/other", {
        method: "POST",
        token: kit.bursar,
        json: { kind: "transcript", amount_naira: "5,000", gateways: ["remita"] },
      });
      expect(narrowed.status).toBe(200);
      const me = await kit.newStudent();
      const id = await kit.requested(me.token);
      const response = await kit.pay(me.token, id);
      expect(response.status).toBe(409);
      expect((await response.json()).message).toMatch(
        /^The bursary takes the transcript fee through a gateway that cannot take it here/,
      );
      expect(await paymentsOf(kit, me)).toEqual([]);
    } finally {
      await kit.api.close();
    }
  });
});
