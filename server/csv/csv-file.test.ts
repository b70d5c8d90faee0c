import { describe, expect, it } from "vitest";
import { ApiError } from "../http/errors.ts";
import { CSV_MAX_BYTES } from "../../common/http/body-limits.ts";
import { csvCell, decodeCsv, parseCsv, toCsv } from "./csv-file.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error.message;
    throw error;
  }
  throw new Error("expected a refusal");
};

describe("decodeCsv", () => {
  it("reads UTF-8 with or without a byte-order mark", () => {
    expect(decodeCsv(bytes("code,title\nBIO101,Cell\n"))).toBe("code,title\nBIO101,Cell\n");
    expect(decodeCsv(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes("a\n")]))).toBe("a\n");
  });

  it.each([
    ["an empty file", new Uint8Array(), "The file is empty."],
    [
      "Windows-1252 (é as 0xE9)",
      new Uint8Array([...bytes("surname\nAdé"), 0xe9, 0x0a]),
      "not in UTF-8",
    ],
    ["UTF-16", new Uint8Array([0xff, 0xfe, 0x61, 0x00]), "not a CSV text file"],
    ["a binary file", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]), "not a CSV text file"],
    ["a file over the limit", new Uint8Array(CSV_MAX_BYTES + 1).fill(0x61), "larger than 2 MB"],
  ])("refuses %s", (_case, input, message) => {
    expect(refusal(() => decodeCsv(input))).toContain(message);
  });
});

describe("parseCsv", () => {
  const columns = ["code", "title", "unit"] as const;

  // CHM101 is on row 4: the blank line 3 is a row in the spreadsheet, so it counts, though it is not imported.
  it("gives each row its spreadsheet line number, trimmed cells, with CRLF or LF", () => {
    const rows = parseCsv(
      'code,title,unit\r\n BIO101 , Cell Biology ,2\r\n\r\nCHM101,"Atoms, Molecules",3\n',
      columns,
    );
    expect(rows).toEqual([
      { row: 2, values: { code: "BIO101", title: "Cell Biology", unit: "2" } },
      { row: 4, values: { code: "CHM101", title: "Atoms, Molecules", unit: "3" } },
    ]);
  });

  it("numbers rows below blank lines, comma-only lines and a cell spanning two lines as the spreadsheet does", () => {
    const text =
      'code,title,unit\nBIO101,Cell,2\n\n , , \n,,,,,,,,,,,\nCHM101,"Atoms\nand Molecules",3\nPHY101,Motion,3\n\n,,\n';
    expect(parseCsv(text, columns).map(({ row, values }) => [row, values.code])).toEqual([
      [2, "BIO101"],
      [6, "CHM101"],
      [7, "PHY101"],
    ]);
  });

  it("names the spreadsheet row of a refusal below a blank line", () => {
    expect(
      refusal(() => parseCsv("code,title,unit\nA,B,1\n\nC,D,1\nE,F,1,extra\n", columns)),
    ).toContain("Row 5 has more cells");
  });

  it("accepts a header in capitals but not in another order or with a missing column", () => {
    expect(parseCsv("CODE,Title,UNIT\nA,B,1", columns)).toHaveLength(1);
    expect(refusal(() => parseCsv("title,code,unit\nB,A,1", columns))).toBe(
      "The first line must be exactly: code,title,unit (The columns are all there, but in another order.)",
    );
    expect(refusal(() => parseCsv("code,title\nA,B", columns))).toBe(
      "The first line must be exactly: code,title,unit (Missing: unit.)",
    );
  });

  it.each([
    ["a misspelt heading", "Code,Titel,unit", '(Misspelt: "titel" should be "title".)'],
    [
      "a heading written with spaces",
      "code,title,Unit No",
      '(Misspelt: "unit no" should be "unit".)',
    ],
    [
      "an extra column and a missing one",
      "code,title,notes",
      "(Missing: unit. Not expected: notes.)",
    ],
    ["a column written twice instead of another", "code,code,title", "(Missing: unit.)"],
    ["every column, one twice", "code,title,unit,unit", "(Written twice: unit.)"],
  ])("says what is wrong with a header: %s", (_case, header, detail) => {
    expect(refusal(() => parseCsv(`${header}\nA,B,1`, columns))).toBe(
      `The first line must be exactly: code,title,unit ${detail}`,
    );
  });

  it.each([
    ["a header alone", "code,title,unit\n", "The file has a header but no rows."],
    [
      "a header over empty lines only",
      "code,title,unit\n\n,,\r\n , ,\n,,,,,,,,,,,\n",
      "The file has a header but no rows: the lines below it are empty (blank, or only commas).",
    ],
    ["a stray quote", 'code,title,unit\nA,"B,1\n', "not valid CSV"],
    ["a row with extra cells", "code,title,unit\nA,B,1,extra\n", "Row 2 has more cells"],
  ])("refuses %s", (_case, text, message) => {
    expect(refusal(() => parseCsv(text, columns))).toContain(message);
  });
});

describe("exported cells", () => {
  it.each([
    [
      '=HYPERLINK("http://evil.example","Click")',
      `"'=HYPERLINK(""http://evil.example"",""Click"")"`,
    ],
    ["+2348030000001", `"'+2348030000001"`],
    ["-1+1", `"'-1+1"`],
    ["@SUM(A1)", `"'@SUM(A1)"`],
    ["Okonkwo", '"Okonkwo"'],
    [null, '""'],
  ])("%j is written as %s", (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it("writes CRLF lines a spreadsheet opens", () => {
    expect(toCsv(["a", "b"], [[1, "x"]])).toBe('"a","b"\r\n"1","x"\r\n');
  });
});
