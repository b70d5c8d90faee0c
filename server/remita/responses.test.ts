import { describe, expect, it } from "vitest";
import {
  meaningOf,
  PaymentInitAnswer,
  readRemitaJson,
  readRemitaTime,
  StatusAnswer,
  writeRemitaTime,
} from "./responses.ts";

describe("readRemitaJson", () => {
  const generated = {
    statuscode: "025",
    RRR: "140007752615",
    status: "Payment Reference generated",
  };

  it.each([
    ["Remita's JSONP, as SystemSpecs captured it", `jsonp (${JSON.stringify(generated)})`],
    ["JSONP without the space", `jsonp(${JSON.stringify(generated)})`],
    ["JSONP ending in a semicolon and a newline", `jsonp (${JSON.stringify(generated)});\n`],
    ["JSONP after a byte-order mark", `\uFEFFjsonp (${JSON.stringify(generated)})`],
    ["another callback name", `callback (${JSON.stringify(generated)})`],
    ["plain JSON", JSON.stringify(generated)],
    ["plain JSON around spaces", `  ${JSON.stringify(generated)}\n`],
  ])("reads %s", (_case, text) => {
    expect(readRemitaJson(text)).toEqual(generated);
  });

  it("keeps parentheses inside the JSON", () => {
    const body = {
      statuscode: "023",
      RRR: "",
      status: "Service type (or Merchant) Does not Exist",
    };
    expect(readRemitaJson(`jsonp (${JSON.stringify(body)})`)).toEqual(body);
  });

  it.each([
    ["an HTML error page", "<html><body>502 Bad Gateway</body></html>"],
    ["an empty body", ""],
    ["JSONP around something that is not JSON", "jsonp (alert(1))"],
    ["script that would run if evaluated", "jsonp ({}); globalThis.pwned = true"],
    ["a truncated answer", 'jsonp ({"statuscode":"025","RRR":"1400'],
  ])("reads %s as nothing, and runs none of it", (_case, text) => {
    expect(readRemitaJson(text)).toBeUndefined();
    expect((globalThis as { pwned?: boolean }).pwned).toBeUndefined();
  });
});

describe("the answers' shapes, leniently", () => {
  it("take codes as text, or as the numbers some wrappers keep", () => {
    expect(PaymentInitAnswer.parse({ statuscode: 25, RRR: "1" }).statuscode).toBe("025");
    expect(StatusAnswer.parse({ status: 1 }).status).toBe("01");
    expect(StatusAnswer.parse({ status: 0 }).status).toBe("00");
    expect(StatusAnswer.parse({ status: 21 }).status).toBe("021");
    expect(StatusAnswer.parse({ status: 998 }).status).toBe("998");
  });

  it("take a status answer as SystemSpecs captured it from Remita's demo", () => {
    const captured = {
      amount: 1000.0,
      RRR: "300010098688",
      orderId: "167385702312256829974",
      message: "Approved",
      paymentDate: "2023-01-16 08:18:54 AM",
      transactiontime: "2023-01-16 12:00:00 AM",
      status: "01",
    };
    expect(StatusAnswer.parse(captured)).toMatchObject({ status: "01", amount: 1000 });
  });
});

describe("what Remita's codes mean to us", () => {
  it.each([
    ["00", "paid"],
    ["01", "paid"],
    ["021", "pending"],
    ["025", "pending"],
    ["040", "pending"],
    ["041", "pending"],
    ["045", "pending"],
    ["02", "failed"],
    ["012", "failed"],
    ["046", "failed"],
    ["059", "failed"],
    ["022", "not-found"],
    ["023", "not-found"],
    ["013", "our-fault"],
    ["020", "our-fault"],
    ["997", "unknown-outcome"],
    ["998", "unknown-outcome"],
    ["999", "unknown-outcome"],
    // Nothing is credited or failed on a code we cannot read: it stays open and is asked again.
    ["077", "pending"],
    ["", "pending"],
  ])("%j is %s", (code, meaning) => {
    expect(meaningOf(code)).toBe(meaning);
  });

  it("never reads 1 or 2 as 01 or 02 (codes are text)", () => {
    expect(meaningOf("1")).toBe("pending");
    expect(meaningOf("2")).toBe("pending");
  });
});

describe("Remita's times", () => {
  it.each([
    ["2023-01-16 08:18:54 AM", "2023-01-16T07:18:54.000Z"],
    ["2023-01-16 12:00:00 AM", "2023-01-15T23:00:00.000Z"],
    ["2023-01-16 12:30:00 PM", "2023-01-16T11:30:00.000Z"],
    ["2023-01-16 11:59:59 PM", "2023-01-16T22:59:59.000Z"],
    ["2021-01-20 11:17:03", "2021-01-20T10:17:03.000Z"],
    ["2021-01-20T11:17:03Z", "2021-01-20T11:17:03.000Z"],
    ["2021-01-20T11:17:03+01:00", "2021-01-20T10:17:03.000Z"],
  ])("reads %j in West Africa Time unless it names a zone", (text, iso) => {
    expect(readRemitaTime(text)?.toISOString()).toBe(iso);
  });

  it.each(["", "yesterday", "2023-02-31 10:00:00 AM", "2023-01-16 13:00:00 PM", "2023-01-16"])(
    "reads %j as no time",
    (text) => {
      expect(readRemitaTime(text)).toBeNull();
    },
  );

  it("writes a moment back as Remita does", () => {
    const moment = new Date("2023-01-16T07:18:54.000Z");
    expect(writeRemitaTime(moment)).toBe("2023-01-16 08:18:54 AM");
    expect(readRemitaTime(writeRemitaTime(moment))).toEqual(moment);
    expect(writeRemitaTime(new Date("2023-01-15T23:00:00.000Z"))).toBe("2023-01-16 12:00:00 AM");
    expect(writeRemitaTime(new Date("2023-01-16T11:30:00.000Z"))).toBe("2023-01-16 12:30:00 PM");
  });
});
