import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBursaryKit, type BursaryKit } from "./bursary.test-kit.ts";

let kit: BursaryKit;
beforeAll(async () => {
  kit = await createBursaryKit();
});
afterAll(() => kit.api.close());

describe("the bursar finds payments and reads their history", () => {
  it("a payment's page shows its whole history from stored events, replays included", async () => {
    const { reference, who } = await kit.paidPayment();
    await kit.deliverWebhook(kit.webhookFor(reference)); // Paystack retries: answered, recorded, credited once.
    await kit.verify(reference, who.token);
    const response = await kit.asBursar(`/staff/payments/${reference}`);
    expect(response.status).toBe(200);
    const { data } = await response.json();
    expect(data).toMatchObject({
      reference,
      status: "success",
      paid_amount_kobo: 12_000_000,
      flagged: false,
      refunds: [],
    });
    expect(data.events.map((event: { kind: string }) => event.kind)).toEqual([
      "initialised",
      "webhook-received",
      "credited",
      "webhook-received",
    ]);
    expect(data.events[1].detail).toMatchObject({
      source: "webhook",
      status: "success",
      amount_kobo: 12_000_000,
    });
  });

  it("searches by reference, matric number, name, status and date range", async () => {
    const who = await kit.newStudent({
      surname: "Adeyemi",
      othername: "Folake",
      matricNo: "NCE/2024/0999",
    });
    const { reference } = await kit.paidPayment({ who });
    const find = async (query: string) => {
      const response = await kit.asBursar(`/staff/payments?${query}`);
      expect(response.status).toBe(200);
      return ((await response.json()).data as { reference: string }[]).map((row) => row.reference);
    };
    expect(await find(`q=${reference}`)).toEqual([reference]);
    expect(await find("q=nce/2024/0999")).toEqual([reference]);
    expect(await find("q=folake adeyemi")).toEqual([reference]);
    expect(await find(`q=adeyemi&status=success&from=${kit.today()}&to=${kit.today()}`)).toEqual([
      reference,
    ]);
    expect(await find("q=adeyemi&status=pending")).toEqual([]);
    expect(await find("q=adeyemi&from=2030-01-01")).toEqual([]);
  });

  it("finds a name whatever its accents, apostrophes and capitals, as the registry's search does", async () => {
    const accented = await kit.newStudent({ surname: "Ọ̀ṣọ́bà", othername: "Tèmítọ́pẹ́ Ayọ̀ká" });
    const apostrophe = await kit.newStudent({ surname: "O'Neil", othername: "Ifunanya" });
    const first = (await kit.paidPayment({ who: accented })).reference;
    const second = (await kit.paidPayment({ who: apostrophe })).reference;
    const find = async (q: string) => {
      const response = await kit.asBursar(`/staff/payments?q=${encodeURIComponent(q)}`);
      expect(response.status).toBe(200);
      return ((await response.json()).data as { reference: string }[]).map((row) => row.reference);
    };
    expect(await find("osoba")).toEqual([first]);
    expect(await find("TEMITOPE OSOBA")).toEqual([first]);
    expect(await find("Ọ̀ṣọ́bà")).toEqual([first]);
    expect(await find("oneil")).toEqual([second]);
    expect(await find("ifunanya o'neil")).toEqual([second]);
    expect(await find("O’Neil")).toEqual([second]);
    // A first name and the surname, the middle name left out.
    expect(await find("temitope osoba")).toEqual([first]);
  });

  it.each([
    ["an unknown status", "status=paid"],
    ["a date that is not one", "from=15/01/2025"],
    ["a start after the end", "from=2025-02-01&to=2025-01-01"],
    ["page zero", "page=0"],
  ])("refuses %s with a 400", async (_case, query) => {
    const response = await kit.asBursar(`/staff/payments?${query}`);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBeTruthy();
  });

  it("answers 404 for an unknown reference and 400 for one that cannot be a reference", async () => {
    expect((await kit.asBursar("/staff/payments/NOPE-123")).status).toBe(404);
    expect((await kit.asBursar("/staff/payments/%3Cscript%3E")).status).toBe(400);
  });
});
