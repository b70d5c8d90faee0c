import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBursaryKit, type BursaryKit } from "./bursary/bursary.test-kit.ts";
import { feeSchedule, feeStatusFlags } from "../db/schema.ts";
import { staffSignIn } from "../staff/staff.test-kit.ts";
import { reconcilePendingPayments } from "./reconciler.ts";

// A pending payment started before its fee changed and not paid within 24 hours is closed; money
// Paystack took for it anyway is credited at what was received and flagged (decision 152).

let kit: BursaryKit;
const HOUR = 60 * 60_000;

beforeAll(async () => {
  kit = await createBursaryKit();
});
afterAll(() => kit.api.close());

const reconcile = () => reconcilePendingPayments(kit.api.deps);
type Who = Awaited<ReturnType<BursaryKit["newStudent"]>>;

/** A day passes: sessions end, so everyone signs in again. */
async function hoursPass(hours: number, ...students: Who[]) {
  kit.api.clock.advance(hours * HOUR);
  for (const who of students) who.token = await kit.api.signIn(who.student.phone);
  bursarToken = await staffSignIn(kit.api, kit.bursar);
}
let bursarToken: string | undefined;
const asBursar = (path: string, init: { method?: string; json?: unknown } = {}) =>
  bursarToken ? kit.api.request(path, { ...init, token: bursarToken }) : kit.asBursar(path, init);

/** The bursar edits the 100-level 2024/2025 fee of `option` (unpaid, so edited in place). */
async function changeFee(option: string, naira: string) {
  const [fee] = await kit.api.db
    .select()
    .from(feeSchedule)
    .where(
      and(
        eq(feeSchedule.paymentOption, option),
        eq(feeSchedule.level, 100),
        eq(feeSchedule.session, "2024/2025"),
        isNull(feeSchedule.replacedAt),
        isNull(feeSchedule.programmeId),
      ),
    );
  const changed = await asBursar(`/staff/fees/${fee!.id}`, {
    method: "PATCH",
    json: { amount_naira: naira },
  });
  expect(changed.status).toBe(200);
}

async function studentView(who: Who) {
  const info = (
    await (
      await kit.api.request(`/student/payment-info/${who.student.id}`, { token: who.token })
    ).json()
  ).data;
  return {
    complete: info.school_fees_payment.payment_complete,
    notices: info.school_fees_payment.notices,
    notes: Object.fromEntries(
      info.school_fee_payment.map((row: { paystack_ref: string; note: string | null }) => [
        row.paystack_ref,
        row.note,
      ]),
    ),
  };
}

const flagOf = async (reference: string) =>
  (
    await kit.api.db
      .select()
      .from(feeStatusFlags)
      .where(eq(feeStatusFlags.paymentId, (await kit.paymentRow(reference)).id))
  )[0]?.reason;

const CLOSED =
  "The fee changed to ₦130,000.00 after this payment was started, and it was not paid within 24 hours, so it is closed. Start a new payment at ₦130,000.00 from the Payment page.";

describe("a pending payment after its fee changed", () => {
  it("stays payable for 24 hours, is then closed by the reconciler with the new amount in words, and the student pays afresh at the new amount", async () => {
    const me = await kit.newStudent();
    const old = await kit.start(me, "full");
    expect((await kit.paymentRow(old)).amountKobo).toBe(12_000_000);
    await changeFee("full", "130000");

    await hoursPass(23, me);
    await reconcile();
    expect((await kit.paymentRow(old)).status).toBe("pending");

    await hoursPass(2, me);
    await reconcile();
    expect(await kit.paymentRow(old)).toMatchObject({
      status: "abandoned",
      gatewayResponse: CLOSED,
    });
    const view = await studentView(me);
    expect(view.notes[old]).toBe(CLOSED);
    expect(view.notices).toEqual([`Payment ${old}: ${CLOSED}`]);
    const listed = (await (await asBursar(`/staff/payments?q=${old}`)).json()).data;
    expect(listed[0]).toMatchObject({ status: "abandoned", flagged: false });
    const detail = (await (await asBursar(`/staff/payments/${old}`)).json()).data;
    expect(detail.events.at(-1)).toMatchObject({
      kind: "abandoned",
      detail: { fee_changed_to_kobo: 13_000_000 },
    });

    const fresh = await kit.start(me, "full");
    expect((await kit.paymentRow(fresh)).amountKobo).toBe(13_000_000);
    await kit.payAtSandbox(fresh);
    expect((await kit.verify(fresh, me.token)).status).toBe(200);
    expect(await studentView(me)).toMatchObject({
      complete: "full",
      notices: [],
      notes: { [old]: CLOSED, [fresh]: null },
    });
  });

  it("money Paystack took anyway is credited at what was received and flagged; a Requery closes one still unpaid; one started after the change is left alone", async () => {
    const paidLate = await kit.newStudent();
    const unpaid = await kit.newStudent();
    const paidLateRef = await kit.start(paidLate, "part");
    const unpaidRef = await kit.start(unpaid, "part");
    const partKobo = (await kit.paymentRow(unpaidRef)).amountKobo;
    await changeFee("part", "80000");
    const after = await kit.newStudent();
    const afterRef = await kit.start(after, "part");
    expect((await kit.paymentRow(afterRef)).amountKobo).toBe(8_000_000);

    await hoursPass(25, paidLate, unpaid, after);
    const requery = await kit.verify(unpaidRef, unpaid.token);
    expect(requery.status).toBe(409);
    expect((await requery.json()).error.message).toBe(
      CLOSED.replaceAll("₦130,000.00", "₦80,000.00"),
    );
    expect((await kit.paymentRow(unpaidRef)).status).toBe("abandoned");

    await kit.payAtSandbox(paidLateRef); // the webhook is lost; the reconciler asks Paystack first
    await reconcile();
    expect(await kit.paymentRow(paidLateRef)).toMatchObject({
      status: "success",
      paidAmountKobo: partKobo,
    });
    expect(await flagOf(paidLateRef)).toContain(
      "though the fee changed to ₦80,000.00 after this payment was started",
    );
    expect((await studentView(paidLate)).complete).toBe("part");
    expect((await kit.paymentRow(afterRef)).status).toBe("pending");

    // The closed one still credits, flagged, if its money arrives after all.
    await kit.payAtSandbox(unpaidRef);
    await kit.deliverWebhook(kit.webhookFor(unpaidRef));
    expect((await kit.paymentRow(unpaidRef)).status).toBe("success");
    expect(await flagOf(unpaidRef)).toContain(`Credited at ${"₦"}`);
  });
});
