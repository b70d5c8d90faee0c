import { describe, expect, it } from "vitest";
import { decodeEncodedWords, decodeQuotedPrintable, parseMail } from "./mime.ts";

describe("decodeQuotedPrintable", () => {
  it.each([
    ["plain ASCII", "hello", "hello"],
    [
      "a soft line break",
      "http://localhost:4321/pass=\r\nword/reset",
      "http://localhost:4321/password/reset",
    ],
    ["a soft line break after LF normalising", "abc=\ndef", "abcdef"],
    ["an escaped equals sign", "a=3Db", "a=b"],
    ["UTF-8 bytes", "=E2=82=A6 5,000", "₦ 5,000"],
    ["lower-case hex", "=e2=82=a6", "₦"],
    ["a hard line break", "one\r\ntwo", "one\r\ntwo"],
    ["a lone equals sign", "a = b", "a = b"],
  ])("decodes %s", (_case, encoded, decoded) => {
    expect(decodeQuotedPrintable(encoded).toString("utf8")).toBe(decoded);
  });
});

describe("decodeEncodedWords", () => {
  it.each([
    ["no encoded words", "Reset your password", "Reset your password"],
    ["Q encoding", "=?UTF-8?Q?Pay_=E2=82=A65,000?=", "Pay ₦5,000"],
    ["B encoding", `=?utf-8?B?${Buffer.from("Kọ́lá").toString("base64")}?=`, "Kọ́lá"],
    ["two adjacent words", "=?UTF-8?Q?Reset_?= =?UTF-8?Q?now?=", "Reset now"],
    ["text around a word", "Hi =?UTF-8?Q?=C3=80da?= and all", "Hi Àda and all"],
  ])("decodes %s", (_case, value, decoded) => {
    expect(decodeEncodedWords(value)).toBe(decoded);
  });
});

describe("parseMail", () => {
  it("reads a single-part message", () => {
    const raw = [
      "Subject: =?UTF-8?Q?Fees_=E2=82=A6?=",
      "To: ada@student.test",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "Line one=",
      " continues",
      "",
    ].join("\r\n");
    expect(parseMail(raw)).toEqual({
      headers: expect.any(Map),
      subject: "Fees ₦",
      text: "Line one continues",
    });
  });

  it("finds text and HTML inside nested multipart bodies", () => {
    const text = Buffer.from("Open http://localhost:4321/x ₦").toString("base64");
    const raw = [
      "Subject: Nested",
      'Content-Type: multipart/mixed; boundary="outer"',
      "",
      "preamble",
      "--outer",
      "Content-Type: multipart/alternative;",
      " boundary=inner",
      "",
      "--inner",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: base64",
      "",
      text,
      "--inner",
      "Content-Type: text/html",
      "",
      "<p>Hi</p>",
      "--inner--",
      "--outer",
      "Content-Type: application/pdf",
      "Content-Transfer-Encoding: base64",
      "",
      "JVBERi0=",
      "--outer--",
      "",
    ].join("\r\n");
    const mail = parseMail(raw);
    expect(mail.subject).toBe("Nested");
    expect(mail.text).toBe("Open http://localhost:4321/x ₦");
    expect(mail.html).toBe("<p>Hi</p>");
    expect(mail.headers.get("content-type")).toBe('multipart/mixed; boundary="outer"');
  });
});
