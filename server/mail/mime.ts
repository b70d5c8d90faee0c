/**
 * A small reader of the MIME messages nodemailer writes, for tests that need the text of a
 * mail (e.g. a reset link) as a person would see it. Handles nested multipart bodies,
 * quoted-printable and base64 bodies, and RFC 2047 encoded words in headers; not a general parser.
 */
export type ParsedMail = {
  /** Header values by lower-case name, unfolded and decoded; the first of repeated headers. */
  headers: Map<string, string>;
  subject: string;
  /** The first text/plain part, decoded. */
  text: string;
  /** The first text/html part, decoded, if any. */
  html?: string;
};

type Entity = { headers: Map<string, string>; body: string };

/** Reads a raw message as received over SMTP (after the DATA command). */
export function parseMail(raw: string): ParsedMail {
  const message = splitEntity(raw.replace(/\r\n/g, "\n"));
  const leaves = leafParts(message);
  const textPart = leaves.find((part) => mediaType(part) === "text/plain");
  const htmlPart = leaves.find((part) => mediaType(part) === "text/html");
  return {
    headers: message.headers,
    subject: message.headers.get("subject") ?? "",
    text: textPart ? decodeBody(textPart) : "",
    ...(htmlPart ? { html: decodeBody(htmlPart) } : {}),
  };
}

/** Quoted-printable to bytes: soft line breaks ("=" at a line end) vanish, "=XX" is one byte. */
export function decodeQuotedPrintable(encoded: string): Buffer {
  const joined = encoded.replace(/=[ \t]*\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], "utf8"));
    }
  }
  return Buffer.from(bytes);
}

/** Decodes RFC 2047 encoded words such as `=?UTF-8?Q?Naira_=E2=82=A6?=` in a header value. */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, "$1$2") // whitespace between two encoded words is not text
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_word, charset: string, kind: string, data) => {
      const bytes =
        kind.toUpperCase() === "B"
          ? Buffer.from(data, "base64")
          : decodeQuotedPrintable(data.replace(/_/g, " "));
      return decodeText(bytes, charset);
    });
}

function splitEntity(raw: string): Entity {
  const end = raw.indexOf("\n\n");
  const head = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? "" : raw.slice(end + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, decodeEncodedWords(line.slice(colon + 1).trim()));
  }
  return { headers, body };
}

function leafParts(entity: Entity): Entity[] {
  const boundary = parameter(entity.headers.get("content-type"), "boundary");
  if (!mediaType(entity).startsWith("multipart/") || !boundary) return [entity];
  const sections = entity.body.split(`--${boundary}`);
  // sections[0] is the preamble; the part after the closing "--boundary--" starts with "--".
  return sections
    .slice(1)
    .filter((section) => !section.startsWith("--"))
    .flatMap((section) => leafParts(splitEntity(section.replace(/^[ \t]*\n/, ""))));
}

function mediaType(entity: Entity): string {
  const contentType = entity.headers.get("content-type") ?? "text/plain";
  return contentType.split(";")[0].trim().toLowerCase();
}

function parameter(headerValue: string | undefined, name: string): string | undefined {
  const match = headerValue?.match(new RegExp(`;\\s*${name}\\s*=\\s*("([^"]*)"|[^;\\s]+)`, "i"));
  return match ? (match[2] ?? match[1]) : undefined;
}

function decodeBody(part: Entity): string {
  // The line break before the next boundary belongs to the boundary.
  const body = part.body.replace(/\n$/, "");
  const encoding = (part.headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  const bytes =
    encoding === "quoted-printable"
      ? decodeQuotedPrintable(body)
      : encoding === "base64"
        ? Buffer.from(body, "base64")
        : Buffer.from(body, "utf8");
  return decodeText(bytes, parameter(part.headers.get("content-type"), "charset") ?? "utf-8");
}

function decodeText(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return bytes.toString("utf8"); // unknown charset label
  }
}
