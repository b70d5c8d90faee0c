import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { choice, createPaymentsKit, type PaymentsKit } from "./payments.test-kit.ts";
import { PAYMENT_STARTS_PER_STUDENT, PAYSTACK_CHECKS_PER_STUDENT } from "./payment-limits.ts";

let kit: PaymentsKit;
beforeAll(async () => {
  kit = await createPaymentsKit();
});
afterAll(() => kit.api.close());

const startFull = (who: Awaited<ReturnType<PaymentsKit["newStudent"]>>) =>
  kit.post("/student/school-fee", who.token, { student_id: who.student.id, ...choice("full") });

describe("payment starts per student (decision 054)", () => {
  it(`allows ${PAYMENT_STARTS_PER_STUDENT.limit} starts in half an hour, then says how long to wait`, async () => {
    const me = await kit.newStudent();
    for (let attempt = 0; attempt < PAYMENT_STARTS_PER_STUDENT.limit; attempt++) {
      expect((await (await startFull(me)).json()).status).toBe("pending");
    }
    const refused = await startFull(me);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1800");
    expect((await refused.json()).error.message).toBe(
      "You have started 10 payments in the last half hour. Wait 30 minutes before starting another. A payment you completed is credited without starting a new one.",
    );

    const classmate = await kit.newStudent();
    expect((await startFull(classmate)).status).toBe(200);
    kit.api.clock.advance(PAYMENT_STARTS_PER_STUDENT.windowMs);
    expect((await startFull(me)).status).toBe(200);
  });
});

describe("Paystack checks per student (decision 054)", () => {
  it(`allows ${PAYSTACK_CHECKS_PER_STUDENT.limit} checks in 15 minutes, then refuses without asking Paystack`, async () => {
    const me = await kit.newStudent();
    const reference = await kit.start(me, "full");
    for (let attempt = 0; attempt < PAYSTACK_CHECKS_PER_STUDENT.limit; attempt++) {
      expect((await kit.verify(reference, me.token)).status).toBe(409);
    }
    await kit.payAtSandbox(reference);
    const refused = await kit.verify(reference, me.token);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("900");
    expect((await refused.json()).error.message).toBe(
      "Your payments have been checked with Paystack 20 times in the last 15 minutes. Wait 15 minutes and press Requery again. A completed payment is also credited on its own when Paystack tells us.",
    );
    expect((await kit.paymentRow(reference)).status).toBe("pending");

    kit.api.clock.advance(PAYSTACK_CHECKS_PER_STUDENT.windowMs);
    expect((await kit.verify(reference, me.token)).status).toBe(200);
  });

  it("does not count a payment already credited: it is answered without Paystack", async () => {
    const me = await kit.newStudent();
    const reference = await kit.start(me, "full");
    await kit.payAtSandbox(reference);
    for (let attempt = 0; attempt <= PAYSTACK_CHECKS_PER_STUDENT.limit + 5; attempt++) {
      expect((await kit.verify(reference, me.token)).status).toBe(200);
    }
  });
});
