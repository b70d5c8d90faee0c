import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFeesKit, type FeesKit } from "./fees.test-kit.ts";

let kit: FeesKit;
beforeAll(async () => {
  kit = await createFeesKit();
});
afterAll(() => kit.api.close());

const HEADER = "session,programme,level,study_mode,payment_option,amount_naira";
const file = (...rows: string[]) => [HEADER, ...rows].join("\n");

describe("importing the fee schedule from CSV", () => {
  const good = file(
    '2019/2020,NCE English/French,100,all,full,"118,500.50"',
    "2019/2020,all,100,Part Time,part,60000",
    "2019/2020,,100,,latefees,5000", // the seeded fee, unchanged
    "2020/2021,all,200,all,Full Payment,99000", // a change to a seeded fee nobody has paid
  );

  it("checks a dry run, writes nothing, and reports what would happen", async () => {
    const before = await kit.feeRows();
    const response = await kit.upload(good, true);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      dry_run: true,
      written: false,
      created: 2,
      updated: 1,
      unchanged: 1,
      rejected: [],
    });
    expect(await kit.feeRows()).toEqual(before);
  });

  it("writes a real run, audited, and a second import of the same file changes nothing", async () => {
    expect(await (await kit.upload(good, false)).json()).toMatchObject({
      written: true,
      created: 2,
      updated: 1,
      unchanged: 1,
    });
    expect(
      (await kit.feeRows()).find(
        (row) => row.programmeId === kit.english && row.session === "2019/2020",
      )?.amountKobo,
    ).toBe(11_850_050);
    expect((await kit.audits("fee.create")).length).toBe(2);
    expect((await kit.audits("fee.update")).length).toBe(1);
    expect(await (await kit.upload(good, false)).json()).toMatchObject({
      written: true,
      created: 0,
      updated: 0,
      unchanged: 4,
    });
  });

  it("audits the written file as one summary row that the row of each fee it wrote points to", async () => {
    // The previous case wrote the file twice; the second run changed nothing and has no row.
    const summaries = await kit.audits("fee.import");
    expect(summaries).toEqual([
      expect.objectContaining({
        entity: "fee_import",
        staffId: kit.bursarId,
        after: { created: 2, updated: 1, unchanged: 1 },
        partOf: null,
      }),
    ]);
    const summary = summaries[0]!;
    const parts = [...(await kit.audits("fee.create")), ...(await kit.audits("fee.update"))];
    expect(parts.map((row) => row.partOf)).toEqual([summary.id, summary.id, summary.id]);

    const read = async (query: string) => {
      const response = await kit.api.request(`/staff/audit?${query}`, { token: kit.bursar });
      expect(response.status).toBe(200);
      return (await response.json()) as {
        data: { id: number; record: string; parts: number; part_of: number | null }[];
        total: number;
      };
    };
    expect((await read("action=fee.import")).data).toEqual([
      expect.objectContaining({ id: summary.id, record: "Fee schedule import", parts: 3 }),
    ]);
    const opened = await read(`part_of=${summary.id}`);
    expect(opened.total).toBe(4);
    expect(opened.data.filter((row) => row.part_of === summary.id)).toHaveLength(3);
  });

  it("refuses bad rows one by one with 422 and writes none of the file", async () => {
    const before = await kit.feeRows();
    const response = await kit.upload(
      file(
        "2019/2020,all,300,all,full,100000",
        "2031/2032,all,100,all,full,1000",
        "2019/2020,NCE Cookery,100,all,full,1000",
        "2019/2020,all,100,all,full,-5",
        "2019/2020,all,100,all,full,10.505",
        "2019/2020,all,100,all,tips,1000",
        "2019/2020,all,300,ALL,full,100000",
      ),
      false,
    );
    expect(response.status).toBe(422);
    const report = await response.json();
    expect(report).toMatchObject({ written: false });
    expect(
      report.rejected.map(
        (refusal: { row: number; field: string }) => `${refusal.row}:${refusal.field}`,
      ),
    ).toEqual([
      "3:session",
      "4:programme",
      "5:amount_naira",
      "6:amount_naira",
      "7:payment_option",
      "8:payment_option",
    ]);
    expect(report.rejected[0].message).toContain("There is no 2031/2032 session");
    expect(report.rejected[2].message).toContain("cannot be negative");
    expect(await kit.feeRows()).toEqual(before);
  });

  it("refuses a new amount for a fee students have paid, saying to add a new fee instead", async () => {
    const me = await kit.newStudent();
    const reference = await kit.start(me, "full");
    await kit.payAtSandbox(reference);
    await kit.verify(reference, me.token);
    const response = await kit.upload(file("2024/2025,all,100,all,full,125000"), false);
    expect(response.status).toBe(422);
    expect((await response.json()).rejected[0].message).toContain(
      "Students have paid this fee at ₦120,000, so it cannot change",
    );
  });

  it("refuses a header in another order", async () => {
    const response = await kit.upload(
      "programme,session,level,study_mode,payment_option,amount_naira\nall,2019/2020,100,all,full,1",
      true,
    );
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(
      `The first line must be exactly: ${HEADER} (The columns are all there, but in another order.)`,
    );
  });

  it("stores a study mode as the registry's list spells it, and refuses one not on the list, naming those that are", async () => {
    const checked = await kit.upload(
      file("2019/2020,all,500,PART TIME,full,70000", "2019/2020,all,500,Sandwich,part,35000"),
      true,
    );
    const report = await checked.json();
    expect(report).toMatchObject({ created: 1 });
    expect(report.rejected).toEqual([
      {
        row: 3,
        field: "study_mode",
        message:
          'There is no study mode "Sandwich". The registry\'s study modes are: "Full Time", "Part-Time". The registry adds new ones under Academic structure → Modes.',
      },
    ]);
    expect(
      await (await kit.upload(file("2019/2020,all,500,PART TIME,full,70000"), false)).json(),
    ).toMatchObject({ written: true, created: 1 });
    expect(
      (await kit.feeRows()).find((row) => row.level === 500 && row.amountKobo === 7_000_000)
        ?.studyMode,
    ).toBe("Part-Time");
  });
});

describe("exporting the fee schedule", () => {
  it("writes the import's header and quoted cells, and imports back unchanged", async () => {
    const response = await kit.api.request("/staff/fees/export?session=2019/2020", {
      token: kit.bursar,
    });
    expect(response.headers.get("content-type")).toContain("text/csv");
    const csv = await response.text();
    expect(csv.split("\r\n")[0]).toBe(
      '"session","programme","level","study_mode","payment_option","amount_naira"',
    );
    expect(csv).toContain('"2019/2020","NCE English/French","100","all","full","118500.50"');
    expect(csv).not.toContain("2020/2021");
    expect(await (await kit.upload(csv, true)).json()).toMatchObject({
      created: 0,
      updated: 0,
      rejected: [],
    });
  });
});
