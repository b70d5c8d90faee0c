import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { choice, createPaymentsKit, type PaymentsKit } from "./payments.test-kit.ts";

let kit: PaymentsKit;

beforeAll(async () => {
  kit = await createPaymentsKit();
});
afterAll(() => kit.api.close());

type Who = Awaited<ReturnType<PaymentsKit["newStudent"]>>;

/** Each listed payment's reference and whether the page is told it is an unused attempt. */
async function unusedByReference(who: Who) {
  const response = await kit.api.request(`/student/payment-info/${who.student.id}`, {
    token: who.token,
  });
  expect(response.status).toBe(200);
  const rows: { paystack_ref: string; unused_attempt: boolean }[] = (await response.json()).data
    .school_fee_payment;
  return Object.fromEntries(rows.map((row) => [row.paystack_ref, row.unused_attempt]));
}

async function pay(who: Who, reference: string) {
  await kit.payAtSandbox(reference);
  expect((await kit.verify(reference, who.token)).status).toBe(200);
}

describe("GET /student/payment-info/:id marks checkouts left unpaid", () => {
  it("as unused once another payment pays their fee, and not before", async () => {
    const me = await kit.newStudent();
    const left = await kit.start(me, "full");
    const paid = await kit.start(me, "full");
    expect(await unusedByReference(me)).toEqual({ [left]: false, [paid]: false });

    await pay(me, paid);
    expect(await unusedByReference(me)).toEqual({ [left]: true, [paid]: false });
  });

  it("as unused when the fee rules no longer let them be credited, as a full fee after the first installment", async () => {
    const me = await kit.newStudent();
    const full = await kit.start(me, "full");
    const part = await kit.start(me, "part");
    await pay(me, part);
    const second = await kit.start(me, "second_installment");
    expect(await unusedByReference(me)).toEqual({ [full]: true, [part]: false, [second]: false });
  });

  it("as unused for a declined card beside the paid fee: no money was taken with it either", async () => {
    const me = await kit.newStudent();
    const started = await (
      await kit.post("/student/school-fee", me.token, {
        student_id: me.student.id,
        ...choice("full"),
      })
    ).json();
    await kit.api.sandbox.request(
      `/checkout/${started.authorization_url.split("/").pop()}/decline`,
      { method: "POST" },
    );
    expect((await kit.verify(started.reference, me.token)).status).toBe(409);
    const paid = await kit.start(me, "full");
    expect(await unusedByReference(me)).toEqual({ [started.reference]: false, [paid]: false });

    await pay(me, paid);
    expect(await unusedByReference(me)).toEqual({ [started.reference]: true, [paid]: false });
  });

  it("not for a late fee, owed on top of the paid fee, nor for a fee of another session", async () => {
    const me = await kit.newStudent();
    const late = await kit.start(me, "latefees", 100, "2023/2024");
    const otherSession = await kit.start(me, "full", 100, "2024/2025");
    const full = await kit.start(me, "full", 100, "2023/2024");
    await pay(me, full);
    expect(await unusedByReference(me)).toEqual({
      [late]: false,
      [otherSession]: false,
      [full]: false,
    });
  });

  it("not for money that arrived and could not be credited: a second payment of a paid fee", async () => {
    const me = await kit.newStudent();
    const first = await kit.start(me, "full");
    const second = await kit.start(me, "full");
    await pay(me, first);
    await kit.payAtSandbox(second);
    expect((await kit.verify(second, me.token)).status).toBe(409);
    expect(await unusedByReference(me)).toEqual({ [first]: false, [second]: false });
  });
});
