import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeSchedule } from "../../db/schema.ts";
import { createFeesKit, type FeesKit } from "./fees.test-kit.ts";
import { createStaff, staffSignIn } from "../../staff/staff.test-kit.ts";

// The bursar narrows a fee to some of the gateways the portal offers (decision 189).

const fee = (fields: Record<string, unknown> = {}) => ({
  session: "2024/2025",
  programme_id: "",
  level: 400,
  study_mode: "",
  payment_option: "full",
  amount_naira: "95,000.00",
  ...fields,
});

const rowOf = async (kit: FeesKit, id: number) =>
  (await kit.api.db.select().from(feeSchedule).where(eq(feeSchedule.id, id)))[0]!;

describe("on a portal offering Paystack and Remita", () => {
  let kit: FeesKit;
  beforeAll(async () => {
    kit = await createFeesKit({ offeredGateways: ["paystack", "remita"] });
  });
  afterAll(() => kit.api.close());

  it("keeps the gateways chosen for a new fee, lists them with what is offered, and audits them", async () => {
    const response = await kit.send(
      "POST",
      "/staff/fees",
      fee({ programme_id: kit.english, gateways: ["remita"] }),
    );
    expect(response.status).toBe(201);
    const { data } = await response.json();
    expect((await rowOf(kit, data.id)).allowedGateways).toEqual(["remita"]);
    const created = (await kit.audits("fee.create")).find(
      (entry) => entry.entityId === String(data.id),
    );
    expect(created?.after).toMatchObject({ allowed_gateways: ["remita"] });

    const page = await (
      await kit.api.request(`/staff/fees?level=400&programme=${kit.english}`, {
        token: kit.bursar,
      })
    ).json();
    expect(page.offered_gateways).toEqual([
      { name: "paystack", label: "Paystack" },
      { name: "remita", label: "Remita" },
    ]);
    expect(page.data.find((row: { id: number }) => row.id === data.id).gateways).toEqual([
      "remita",
    ]);
  });

  it("takes one ticked box as a single name, and none as every gateway offered", async () => {
    const english = (fields: object) => fee({ programme_id: kit.english, level: 500, ...fields });
    const one = await kit.send("POST", "/staff/fees", english({ gateways: "paystack" }));
    expect((await rowOf(kit, (await one.json()).data.id)).allowedGateways).toEqual(["paystack"]);
    const none = await kit.send("POST", "/staff/fees", english({ payment_option: "part" }));
    expect((await rowOf(kit, (await none.json()).data.id)).allowedGateways).toEqual([]);
  });

  it("changes a paid fee's gateways in place, though its amount is fixed, and audits the change", async () => {
    const [paidFee] = await kit.api.db
      .select()
      .from(feeSchedule)
      .where(eq(feeSchedule.amountKobo, 120_000_00));
    // A student pays the 100-level full fee, so its amount can no longer change.
    const me = await kit.newStudent();
    const reference = await kit.start(me, "full");
    await kit.payAtSandbox(reference);
    expect((await kit.verify(reference, me.token)).status).toBe(200);

    const amount = await kit.send("PATCH", `/staff/fees/${paidFee!.id}`, {
      amount_naira: "1,000",
      gateways: ["remita"],
    });
    expect(amount.status).toBe(409);
    expect((await rowOf(kit, paidFee!.id)).allowedGateways).toEqual([]);

    const gateways = await kit.send("PATCH", `/staff/fees/${paidFee!.id}`, {
      gateways: ["remita"],
    });
    expect(gateways.status).toBe(200);
    expect((await gateways.json()).message).toBe("Students can pay this fee through Remita only.");
    expect(await rowOf(kit, paidFee!.id)).toMatchObject({
      allowedGateways: ["remita"],
      amountKobo: 120_000_00,
    });
    const update = (await kit.audits("fee.update")).find(
      (entry) => entry.entityId === String(paidFee!.id),
    );
    expect(update).toMatchObject({
      before: { allowed_gateways: [] },
      after: { allowed_gateways: ["remita"] },
    });

    const back = await kit.send("PATCH", `/staff/fees/${paidFee!.id}`, { gateways: [] });
    expect((await back.json()).message).toBe(
      "Students can pay this fee through every gateway the portal offers (Paystack and Remita).",
    );
  });

  it("sets the transcript fee's gateways with its amount, and keeps them when only the amount is sent", async () => {
    const set = (json: object) => kit.send("POST", "/staff/fees/other", json);
    expect(
      (await set({ kind: "transcript", amount_naira: "5,000", gateways: ["paystack"] })).status,
    ).toBe(200);
    expect((await set({ kind: "transcript", amount_naira: "6,000" })).status).toBe(200);
    const [row] = await kit.api.db
      .select()
      .from(feeSchedule)
      .where(eq(feeSchedule.kind, "transcript"));
    expect(row).toMatchObject({ amountKobo: 600_000, allowedGateways: ["paystack"] });
  });

  it.each([
    ["an unknown gateway", { gateways: ["flutterwave"] }],
    ["a gateway that is not a name", { gateways: [1] }],
    ["too many names", { gateways: Array(5).fill("remita") }],
  ])("refuses %s with a 400 and saves nothing", async (_case, fields) => {
    const before = (await kit.feeRows()).length;
    const response = await kit.send("POST", "/staff/fees", fee({ level: 200, ...fields }));
    expect(response.status).toBe(400);
    expect((await response.json()).error.fields.gateways).toMatch(/^Choose gateways from/);
    expect((await kit.feeRows()).length).toBe(before);
  });

  it("lets only the bursar change a fee's gateways: an administrator may read them", async () => {
    const [any] = await kit.feeRows();
    const admin = await staffSignIn(
      kit.api,
      await createStaff(kit.api, { roles: ["admin"], totp: true }),
    );
    const change = await kit.send(
      "PATCH",
      `/staff/fees/${any!.id}`,
      { gateways: ["remita"] },
      admin,
    );
    expect(change.status).toBe(403);
    expect((await rowOf(kit, any!.id)).allowedGateways).toEqual(any!.allowedGateways);
    expect((await kit.api.request("/staff/fees", { token: admin })).status).toBe(200);
  });
});

describe("on a portal offering Paystack alone", () => {
  let kit: FeesKit;
  beforeAll(async () => {
    kit = await createFeesKit();
  });
  afterAll(() => kit.api.close());

  it("refuses a gateway the portal does not offer, for a new fee, a change and the transcript fee", async () => {
    const before = (await kit.feeRows()).length;
    const message =
      "Remita is not offered on this portal (PAYMENT_GATEWAYS), so students could not pay through it. Choose among Paystack, or none for every one offered.";
    const created = await kit.send("POST", "/staff/fees", fee({ gateways: ["remita"] }));
    expect(created.status).toBe(400);
    expect((await created.json()).error).toEqual({ message, fields: { gateways: message } });
    expect((await kit.feeRows()).length).toBe(before);

    const [any] = await kit.feeRows();
    const changed = await kit.send("PATCH", `/staff/fees/${any!.id}`, { gateways: ["remita"] });
    expect(changed.status).toBe(400);
    expect((await rowOf(kit, any!.id)).allowedGateways).toEqual([]);

    const other = await kit.send("POST", "/staff/fees/other", {
      kind: "transcript",
      amount_naira: "5,000",
      gateways: ["paystack", "remita"],
    });
    expect(other.status).toBe(400);
  });
});
