import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeSchedule, feeSplitItems } from "../../db/schema.ts";
import { MAX_SPLIT_ITEMS } from "../../../common/payments/fee-split.ts";
import { remitaLineItemsFor, SPLIT_FEE_AMOUNT_IS_FIXED } from "./fee-split.ts";
import { createFeesKit, type FeesKit } from "./fees.test-kit.ts";

let kit: FeesKit;
beforeAll(async () => {
  kit = await createFeesKit();
});
afterAll(() => kit.api.close());

/** The seeded fee in force for an option at a level in a session (all programmes and modes). */
async function seededFee(option: string, level: number, session = "2024/2025") {
  const [fee] = await kit.api.db
    .select()
    .from(feeSchedule)
    .where(
      and(
        eq(feeSchedule.paymentOption, option),
        eq(feeSchedule.level, level),
        eq(feeSchedule.session, session),
        isNull(feeSchedule.programmeId),
        isNull(feeSchedule.studyMode),
        isNull(feeSchedule.replacedAt),
      ),
    );
  return fee!;
}

const tsa = (fields: Record<string, unknown> = {}) => ({
  beneficiary_name: "Federal College of Education TSA",
  beneficiary_account: "0360883515",
  bank_code: "000",
  amount_naira: "118,500",
  bears_charge: true,
  ...fields,
});
const vendor = (fields: Record<string, unknown> = {}) => ({
  beneficiary_name: "Campus ICT Services Ltd",
  beneficiary_account: "0123456789",
  bank_code: "057",
  amount_naira: "1,500.00",
  bears_charge: false,
  ...fields,
});

const putSplit = (feeId: number, items: unknown, token = kit.bursar) =>
  kit.send("PUT", `/staff/fees/${feeId}/split`, { items }, token);
const splitRows = (feeId: number) =>
  kit.api.db
    .select()
    .from(feeSplitItems)
    .where(eq(feeSplitItems.feeId, feeId))
    .orderBy(feeSplitItems.position);

describe("the bursar splits a fee between accounts on Remita", () => {
  it("saves the split in the bursar's order, audited, and the payment start reads it as line items", async () => {
    const fee = await seededFee("full", 100); // ₦120,000
    const response = await putSplit(fee.id, [tsa(), vendor()]);
    expect(response.status).toBe(200);
    expect((await response.json()).message).toBe(
      "The fee's ₦120,000.00 is now split between 2 accounts on Remita, for RRRs generated from now on.",
    );
    const page = await (
      await kit.api.request(`/staff/fees/${fee.id}/split`, { token: kit.bursar })
    ).json();
    expect(page.data).toMatchObject({
      fee: { id: fee.id, amount_kobo: 12_000_000, payment_option: "full", replaced: false },
      items: [
        {
          beneficiary_account: "0360883515",
          bank_code: "000",
          amount_kobo: 11_850_000,
          bears_charge: true,
        },
        {
          beneficiary_account: "0123456789",
          bank_code: "057",
          amount_kobo: 150_000,
          bears_charge: false,
        },
      ],
    });
    const [audit] = (await kit.audits("fee.split")).filter(
      (row) => row.entityId === String(fee.id),
    );
    expect(audit).toMatchObject({ before: { items: [] }, after: { items: page.data.items } });

    expect(
      await remitaLineItemsFor(kit.api.db, {
        feeId: fee.id,
        paymentOption: "full",
        amountKobo: 12_000_000,
      }),
    ).toEqual([
      {
        id: "item1",
        beneficiaryName: "Federal College of Education TSA",
        beneficiaryAccount: "0360883515",
        bankCode: "000",
        amountKobo: 11_850_000,
        bearsCharge: true,
      },
      {
        id: "item2",
        beneficiaryName: "Campus ICT Services Ltd",
        beneficiaryAccount: "0123456789",
        bankCode: "057",
        amountKobo: 150_000,
        bearsCharge: false,
      },
    ]);
  });

  it("saving the same split again changes nothing and writes no audit row", async () => {
    const fee = await seededFee("full", 100);
    const before = (await kit.audits("fee.split")).length;
    const response = await putSplit(fee.id, [tsa(), vendor()]);
    expect(response.status).toBe(200);
    expect((await response.json()).message).toContain("nothing changed");
    expect((await kit.audits("fee.split")).length).toBe(before);
  });

  it("each installment is a fee of its own, split in its own amounts", async () => {
    const part = await seededFee("part", 100); // ₦72,000
    const second = await seededFee("second_installment", 100);
    expect((await putSplit(part.id, [tsa({ amount_naira: "70,500" }), vendor()])).status).toBe(200);
    const secondNaira = second.amountKobo / 100;
    expect(
      (
        await putSplit(second.id, [
          tsa({ amount_naira: String(secondNaira - 1_000) }),
          vendor({ amount_naira: "1000" }),
        ])
      ).status,
    ).toBe(200);
    const shares = async (feeId: number, option: string, amountKobo: number) =>
      (await remitaLineItemsFor(kit.api.db, { feeId, paymentOption: option, amountKobo })).map(
        (item) => item.amountKobo,
      );
    expect(await shares(part.id, "part", 7_200_000)).toEqual([7_050_000, 150_000]);
    expect(await shares(second.id, "second_installment", second.amountKobo)).toEqual([
      second.amountKobo - 100_000,
      100_000,
    ]);
  });

  it("removing the split (no accounts) is audited, and payments then carry no line items", async () => {
    const fee = await seededFee("full", 200);
    expect((await putSplit(fee.id, [tsa({ amount_naira: fee.amountKobo / 100 })])).status).toBe(
      200,
    );
    const response = await putSplit(fee.id, []);
    expect(response.status).toBe(200);
    expect((await response.json()).message).toContain("no longer split");
    expect(await splitRows(fee.id)).toEqual([]);
    expect(
      (await kit.audits("fee.split_remove")).some((row) => row.entityId === String(fee.id)),
    ).toBe(true);
    expect(
      await remitaLineItemsFor(kit.api.db, {
        feeId: fee.id,
        paymentOption: "full",
        amountKobo: fee.amountKobo,
      }),
    ).toEqual([]);
  });
});

describe("a split that does not fit is refused with a clear 400, and nothing changes", () => {
  const tooMany = Array.from({ length: MAX_SPLIT_ITEMS + 1 }, (_, index) =>
    vendor({
      beneficiary_account: String(1_000_000_000 + index),
      amount_naira: "1",
      bears_charge: index === 0,
    }),
  );
  it.each([
    [
      "accounts short of the fee",
      [tsa({ amount_naira: "100,000" }), vendor()],
      "The accounts add up to ₦101,500.00, but the fee is ₦120,000.00 (₦18,500.00 short)",
    ],
    [
      "accounts over the fee",
      [tsa({ amount_naira: "119,000" }), vendor()],
      "(₦500.00 over). A split must add up to the fee exactly.",
    ],
    [
      "no account bearing Remita's charge",
      [tsa({ bears_charge: false }), vendor()],
      "Choose the one account that bears Remita's charge.",
    ],
    [
      "two accounts bearing it",
      [tsa(), vendor({ bears_charge: true })],
      "Only one account can bear Remita's charge; 2 are chosen.",
    ],
    [
      "an account number of nine digits",
      [tsa({ beneficiary_account: "036088351" }), vendor()],
      "An account number is the 10 digits",
    ],
    [
      "an account number with letters",
      [tsa({ beneficiary_account: "03608835AB" }), vendor()],
      "An account number is the 10 digits",
    ],
    ["a bank code of two digits", [tsa({ bank_code: "57" }), vendor()], "A bank code is 3 digits"],
    ["a bank code in words", [tsa({ bank_code: "GTB" }), vendor()], "A bank code is 3 digits"],
    [
      "a beneficiary with no name",
      [tsa({ beneficiary_name: " " }), vendor()],
      "Give the beneficiary's name",
    ],
    [
      "a share of nothing",
      [tsa({ amount_naira: "120,000" }), vendor({ amount_naira: "0" })],
      "more than ₦0",
    ],
    [
      "a negative share",
      [tsa({ amount_naira: "121,500" }), vendor({ amount_naira: "-1,500" })],
      "cannot be negative",
    ],
    [
      "a share in fractions of a kobo",
      [tsa(), vendor({ amount_naira: "1500.005" })],
      "at most two decimal places",
    ],
    ["a share in words", [tsa(), vendor({ amount_naira: "fifteen hundred" })], "using digits"],
    [
      "the same account twice",
      [tsa({ amount_naira: "60,000" }), tsa({ amount_naira: "60,000", bears_charge: false })],
      "is in the split twice",
    ],
    ["more accounts than a split takes", tooMany, `at most ${MAX_SPLIT_ITEMS} accounts`],
    ["no list of accounts", "TSA 120000", "Send the split as a list of accounts."],
  ])("%s", async (_case, items, message) => {
    const fee = await seededFee("full", 100);
    const before = await splitRows(fee.id);
    const response = await putSplit(fee.id, items);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.status).toBe("error");
    expect(body.error.message).toContain(message);
    expect(await splitRows(fee.id)).toEqual(before);
  });

  it("a body that is not JSON: 415", async () => {
    const fee = await seededFee("full", 300);
    const response = await kit.api.request(`/staff/fees/${fee.id}/split`, {
      method: "PUT",
      token: kit.bursar,
      body: "items=x",
    });
    expect(response.status).toBe(415);
  });

  it("a fee that does not exist: 404; an id that is not one: 400", async () => {
    expect((await putSplit(999_999, [tsa(), vendor()])).status).toBe(404);
    expect((await kit.api.request("/staff/fees/999999/split", { token: kit.bursar })).status).toBe(
      404,
    );
    expect((await putSplit("abc" as unknown as number, [tsa(), vendor()])).status).toBe(400);
  });

  it("a fee replaced by a newer one keeps its split: 409", async () => {
    const fee = await seededFee("latefees", 500);
    await kit.api.db
      .update(feeSchedule)
      .set({ replacedAt: kit.api.clock.now() })
      .where(eq(feeSchedule.id, fee.id));
    const response = await putSplit(fee.id, [tsa({ amount_naira: fee.amountKobo / 100 })]);
    expect(response.status).toBe(409);
    expect((await response.json()).message).toContain("replaced by a newer one");
  });
});

describe("a split fee's amount cannot change under its split", () => {
  it("is refused by the edit, the CSV import and the college-wide fee alike, and allowed once the split is removed", async () => {
    const fee = await seededFee("full", 400);
    const naira = fee.amountKobo / 100;
    expect((await putSplit(fee.id, [tsa({ amount_naira: naira })])).status).toBe(200);

    const edit = await kit.send("PATCH", `/staff/fees/${fee.id}`, { amount_naira: "1,000" });
    expect(edit.status).toBe(409);
    expect((await edit.json()).message).toBe(SPLIT_FEE_AMOUNT_IS_FIXED);

    const imported = await kit.upload(
      `session,programme,level,study_mode,payment_option,amount_naira\n2024/2025,all,400,all,full,1000`,
      false,
    );
    expect(imported.status).toBe(422);
    expect(JSON.stringify(await imported.json())).toContain(
      "This fee is split between accounts on Remita",
    );
    expect((await seededFee("full", 400)).amountKobo).toBe(fee.amountKobo);

    // The same amount again is no change, so it is not refused.
    expect((await kit.send("PATCH", `/staff/fees/${fee.id}`, { amount_naira: naira })).status).toBe(
      200,
    );

    expect((await putSplit(fee.id, [])).status).toBe(200);
    expect(
      (await kit.send("PATCH", `/staff/fees/${fee.id}`, { amount_naira: "1,000" })).status,
    ).toBe(200);
  });

  it("the transcript fee too", async () => {
    expect(
      (await kit.send("POST", "/staff/fees/other", { kind: "transcript", amount_naira: "5,000" }))
        .status,
    ).toBe(200);
    const [fee] = await kit.api.db
      .select()
      .from(feeSchedule)
      .where(and(eq(feeSchedule.kind, "transcript"), isNull(feeSchedule.replacedAt)));
    expect((await putSplit(fee!.id, [tsa({ amount_naira: "5,000" })])).status).toBe(200);
    const refused = await kit.send("POST", "/staff/fees/other", {
      kind: "transcript",
      amount_naira: "6,000",
    });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(SPLIT_FEE_AMOUNT_IS_FIXED);
    expect(
      await remitaLineItemsFor(kit.api.db, {
        feeId: fee!.id,
        paymentOption: "transcript",
        amountKobo: 500_000,
      }),
    ).toHaveLength(1);
  });

  it("a paid fee replaced by a new one: the new fee starts without a split, and the bursar is told", async () => {
    const me = await kit.newStudent();
    const reference = await kit.start(me, "part");
    await kit.payAtSandbox(reference);
    await kit.verify(reference, me.token);
    const paid = await seededFee("part", 100);
    const replaced = await kit.send("POST", "/staff/fees", {
      session: "2024/2025",
      programme_id: "",
      level: 100,
      study_mode: "",
      payment_option: "part",
      amount_naira: "75,000",
    });
    expect(replaced.status).toBe(201);
    expect((await replaced.json()).message).toContain(
      "split between accounts on Remita is not carried over",
    );
    const fresh = await seededFee("part", 100);
    expect(fresh.id).not.toBe(paid.id);
    expect(await splitRows(fresh.id)).toEqual([]);
    expect(await splitRows(paid.id)).toHaveLength(2);
  });
});

describe("the line items a Remita payment carries", () => {
  it("none for a fee without a split, or a payment without a fee", async () => {
    const fee = await seededFee("full", 100, "2023/2024");
    expect(
      await remitaLineItemsFor(kit.api.db, {
        feeId: fee.id,
        paymentOption: "full",
        amountKobo: fee.amountKobo,
      }),
    ).toEqual([]);
    expect(
      await remitaLineItemsFor(kit.api.db, { feeId: null, paymentOption: "full", amountKobo: 100 }),
    ).toEqual([]);
  });

  it("a payment at another amount than the split's is split in proportion, the kobo left over to the charge bearer", async () => {
    const fee = await seededFee("full", 100, "2022/2023");
    const naira = fee.amountKobo / 100;
    const saved = await putSplit(fee.id, [
      vendor({ amount_naira: String(naira / 2) }),
      tsa({ amount_naira: String(naira / 4), beneficiary_account: "1111111111" }),
      tsa({ amount_naira: String(naira / 4), bears_charge: false }),
    ]);
    expect(saved.status).toBe(200);
    const items = await remitaLineItemsFor(kit.api.db, {
      feeId: fee.id,
      paymentOption: "full",
      amountKobo: 100_001,
    });
    expect(items.map((item) => [item.amountKobo, item.bearsCharge])).toEqual([
      [50_000, false],
      [25_001, true],
      [25_000, false],
    ]);
    expect(items.reduce((sum, item) => sum + item.amountKobo, 0)).toBe(100_001);
  });

  it("a payment naming another option than its fee's is a fault in the caller, never a silent split", async () => {
    const fee = await seededFee("full", 100);
    await expect(
      remitaLineItemsFor(kit.api.db, {
        feeId: fee.id,
        paymentOption: "part",
        amountKobo: fee.amountKobo,
      }),
    ).rejects.toThrow("not the payment's part");
  });
});
