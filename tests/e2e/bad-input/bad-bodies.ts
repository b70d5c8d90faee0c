/**
 * Bodies a careless or hostile client sends: oversized, malformed, mislabelled, with NUL bytes.
 * The field names are those the portal's forms and JSON calls use, so each body reaches as far
 * into a route as it can.
 */
const FIELDS = [
  "username",
  "password",
  "subject",
  "message",
  "email",
  "surname",
  "reference",
  "registration_session",
];

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const everyField = <T>(value: T) => Object.fromEntries(FIELDS.map((name) => [name, value]));
const form = (value: string) => Buffer.from(new URLSearchParams(everyField(value)).toString());

function multipart(value: string, boundary = "portalboundary") {
  const parts = FIELDS.map(
    (name) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return Buffer.from(`${parts.join("")}--${boundary}--\r\n`);
}

const JSON_TYPE = { "content-type": "application/json" };
const FORM_TYPE = { "content-type": "application/x-www-form-urlencoded" };
const MULTIPART_TYPE = { "content-type": "multipart/form-data; boundary=portalboundary" };
const LONG = "x".repeat(100_000);

export type BadBody = {
  name: string;
  headers: Record<string, string>;
  body: Buffer;
  chunked?: boolean;
};

export const BAD_BODIES: BadBody[] = [
  { name: "JSON with 100,000-character fields", headers: JSON_TYPE, body: json(everyField(LONG)) },
  { name: "a form with 100,000-character fields", headers: FORM_TYPE, body: form(LONG) },
  {
    name: "multipart with 100,000-character fields",
    headers: MULTIPART_TYPE,
    body: multipart(LONG),
  },
  { name: "3 MB of JSON", headers: JSON_TYPE, body: json({ pad: "y".repeat(3_000_000) }) },
  {
    name: "3 MB of JSON, chunked",
    headers: JSON_TYPE,
    body: json({ pad: "y".repeat(3_000_000) }),
    chunked: true,
  },
  {
    name: "6 MB of multipart, chunked",
    headers: MULTIPART_TYPE,
    body: multipart("z".repeat(6_000_000)),
    chunked: true,
  },
  { name: "JSON cut off half-way", headers: JSON_TYPE, body: Buffer.from('{"username": "0803') },
  {
    name: "JSON labelled as text",
    headers: { "content-type": "text/plain" },
    body: json(everyField("a")),
  },
  { name: "XML", headers: { "content-type": "application/xml" }, body: Buffer.from("<a><b/></a>") },
  { name: "no content type", headers: {}, body: Buffer.from("username=a&password=b") },
  {
    name: "NUL characters in JSON strings",
    headers: JSON_TYPE,
    body: json(everyField("a\u0000b")),
  },
  { name: "NUL bytes in a form", headers: FORM_TYPE, body: form("a\u0000b") },
  { name: "raw NUL bytes as JSON", headers: JSON_TYPE, body: Buffer.alloc(2048) },
  {
    name: "invalid UTF-8",
    headers: JSON_TYPE,
    body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0xc3, 0x7d]),
  },
  { name: "a JSON array", headers: JSON_TYPE, body: json([everyField("a")]) },
  {
    name: "JSON nested 20,000 deep",
    headers: JSON_TYPE,
    body: Buffer.from(`${"[".repeat(20_000)}${"]".repeat(20_000)}`),
  },
  { name: "wrong types in JSON", headers: JSON_TYPE, body: json(everyField({ $gt: "" })) },
  {
    name: "multipart without its closing boundary",
    headers: MULTIPART_TYPE,
    body: Buffer.from(
      '--portalboundary\r\ncontent-disposition: form-data; name="surname"\r\n\r\nEze',
    ),
  },
  {
    name: "multipart with a boundary that never appears",
    headers: { "content-type": "multipart/form-data; boundary=elsewhere" },
    body: multipart("a"),
  },
  { name: "an empty JSON body", headers: JSON_TYPE, body: Buffer.alloc(0) },
];
