import { createHash, createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi, type Api } from "../app.ts";
import { storedFiles } from "../db/schema.ts";
import {
  createApiHarness,
  TEST_PROXY_SECRET,
  type ApiHarness,
} from "../testing/api-harness.test-kit.ts";
import { PROXY_SECRET_HEADER } from "../../common/http/proxy-secret.ts";
import { databasePhotoBackend } from "./database-photos.ts";
import { createPhotoStorage, type PhotoBackend } from "./photo-storage.ts";
import { S3_PHOTO_PREFIX, s3PhotoBackend, type S3Settings } from "./s3-photos.ts";
import { makeImage } from "./images.test-kit.ts";

// ── An S3-compatible store, for these tests only ─────────────────────────────────────────────

type StoredObject = { bytes: Buffer; contentType: string };

/**
 * Answers PutObject, GetObject and DeleteObject for path-style requests (/bucket/key) as S3 does,
 * and checks each request's AWS Signature Version 4 against the one secret it knows, so a
 * request the SDK did not sign with that secret is refused as S3 would refuse it.
 */
async function startS3Double(expected: {
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}) {
  const objects = new Map<string, StoredObject>();
  const requests: { method: string; path: string; signed: boolean; checksumHeaders: string[] }[] =
    [];

  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const [path = "", query = ""] = (request.url ?? "").split("?");
    const refusal = signatureRefusal(request, path, query, body, expected);
    const checksumHeaders = Object.keys(request.headers).filter((name) =>
      /^x-amz-(sdk-)?checksum-/.test(name),
    );
    requests.push({ method: request.method ?? "", path, signed: !refusal, checksumHeaders });
    if (refusal) return sendError(response, 403, refusal);

    const [, bucket, ...keyParts] = path.split("/");
    const key = decodeURIComponent(keyParts.join("/"));
    if (bucket !== expected.bucket) return sendError(response, 404, "NoSuchBucket");
    if (request.method === "PUT") {
      objects.set(key, {
        bytes: body,
        contentType: request.headers["content-type"] ?? "binary/octet-stream",
      });
      response.writeHead(200, { etag: `"${createHash("md5").update(body).digest("hex")}"` }).end();
    } else if (request.method === "GET") {
      const object = objects.get(key);
      if (!object) return sendError(response, 404, "NoSuchKey");
      response
        .writeHead(200, {
          "content-type": object.contentType,
          "content-length": object.bytes.length,
        })
        .end(object.bytes);
    } else if (request.method === "DELETE") {
      objects.delete(key);
      response.writeHead(204).end();
    } else {
      sendError(response, 405, "MethodNotAllowed");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function sendError(response: ServerResponse, status: number, code: string) {
  response
    .writeHead(status, { "content-type": "application/xml" })
    .end(
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${code}</Message></Error>`,
    );
}

const hmac = (key: string | Buffer, text: string) =>
  createHmac("sha256", key).update(text).digest();
const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const rfc3986 = (text: string) =>
  encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );

/** Null when the request carries a valid SigV4 signature by the expected key; else S3's error code. */
function signatureRefusal(
  request: IncomingMessage,
  path: string,
  query: string,
  body: Buffer,
  expected: { region: string; accessKeyId: string; secretAccessKey: string },
): string | null {
  const authorization =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      request.headers.authorization ?? "",
    );
  if (!authorization) return "AccessDenied";
  const [, accessKeyId, day, region, signedHeaders, signature] =
    authorization as unknown as string[];
  if (accessKeyId !== expected.accessKeyId) return "InvalidAccessKeyId";
  if (region !== expected.region) return "AuthorizationHeaderMalformed";
  const amzDate = String(request.headers["x-amz-date"] ?? "");
  const payloadHash = String(request.headers["x-amz-content-sha256"] ?? "");
  if (!amzDate.startsWith(day!) || payloadHash !== sha256(body)) return "SignatureDoesNotMatch";
  const names = signedHeaders!.split(";");
  if (!names.includes("host") || !names.includes("x-amz-date")) return "SignatureDoesNotMatch";

  const canonicalQuery = query
    .split("&")
    .filter(Boolean)
    .map((pair) => pair.split("=").map((part) => rfc3986(decodeURIComponent(part ?? ""))))
    .map(([name = "", value = ""]) => `${name}=${value}`)
    .sort()
    .join("&");
  const canonicalHeaders = names
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? "")
          .trim()
          .replace(/\s+/g, " ")}\n`,
    )
    .join("");
  const canonicalRequest = [
    request.method,
    path,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    payloadHash,
  ].join("\n");
  const scope = `${day}/${region}/s3/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n");
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${expected.secretAccessKey}`, day!), region!), "s3"),
    "aws4_request",
  );
  return hmac(signingKey, stringToSign).toString("hex") === signature
    ? null
    : "SignatureDoesNotMatch";
}

// ── The tests ────────────────────────────────────────────────────────────────────────────────

const BUCKET = {
  bucket: "college-files",
  region: "eu-west-1",
  accessKeyId: "AKIATESTPORTAL",
  secretAccessKey: "test-secret-0123456789abcdef",
};
const VALID_KEY = "0b7c1b8e-3f1a-4c2d-9e8f-123456789abc.jpg";

let s3: Awaited<ReturnType<typeof startS3Double>>;
let h: ApiHarness;
let settings: S3Settings;

beforeAll(async () => {
  s3 = await startS3Double(BUCKET);
  settings = { ...BUCKET, endpoint: s3.url, forcePathStyle: true };
  h = await createApiHarness();
});
afterAll(async () => {
  await h.close();
  await s3.close();
});

// Every byte value, so an escaping bug in either driver's bytea handling would show, then a
// photo-sized random tail.
const everyByte = () =>
  Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(200_000)]);

describe.each([
  { where: "the database", backend: (): PhotoBackend => databasePhotoBackend(h.db) },
  { where: "an S3 bucket", backend: (): PhotoBackend => s3PhotoBackend(settings) },
])("photos kept in $where", ({ backend }) => {
  it("come back byte for byte", async () => {
    const store = backend();
    const bytes = everyByte();

    await store.put(VALID_KEY.replace("0b7c", "1b7c"), bytes, "image/jpeg");

    const read = await store.get(VALID_KEY.replace("0b7c", "1b7c"));
    expect(Buffer.isBuffer(read)).toBe(true);
    expect(read!.equals(bytes)).toBe(true);
  });

  it("answer null for a key nothing is stored under", async () => {
    expect(await backend().get(VALID_KEY.replace("0b7c", "2b7c"))).toBeNull();
  });

  it("are gone once deleted, and deleting again is harmless", async () => {
    const store = backend();
    const key = VALID_KEY.replace("0b7c", "3b7c");
    await store.put(key, Buffer.from([1, 2, 3]), "image/jpeg");

    await store.delete(key);
    await store.delete(key);

    expect(await store.get(key)).toBeNull();
  });
});

describe("the database store", () => {
  it("keeps the content type and size beside the bytes", async () => {
    const key = VALID_KEY.replace("0b7c", "4b7c");
    await databasePhotoBackend(h.db).put(key, new Uint8Array(1234), "image/jpeg");

    const [row] = await h.db.select().from(storedFiles).where(eq(storedFiles.key, key));

    expect(row).toMatchObject({ key, contentType: "image/jpeg", size: 1234 });
  });

  it("refuses to store a second photo under a key already taken", async () => {
    const store = databasePhotoBackend(h.db);
    const key = VALID_KEY.replace("0b7c", "5b7c");
    await store.put(key, Buffer.from("first"), "image/jpeg");

    await expect(store.put(key, Buffer.from("second"), "image/jpeg")).rejects.toThrow();
    expect((await store.get(key))!.toString()).toBe("first");
  });
});

describe("the S3 store", () => {
  // Several S3-compatible stores refuse the checksum headers the SDK would add by default.
  it("addresses the bucket in the path, under passport-photos/, signed, with the content type and no checksum headers", async () => {
    const key = VALID_KEY.replace("0b7c", "6b7c");
    const from = s3.requests.length;

    await s3PhotoBackend(settings).put(key, Buffer.from("jpeg bytes"), "image/jpeg");

    expect(s3.requests.slice(from)).toEqual([
      {
        method: "PUT",
        path: `/college-files/${S3_PHOTO_PREFIX}${key}`,
        signed: true,
        checksumHeaders: [],
      },
    ]);
    expect(s3.objects.get(`${S3_PHOTO_PREFIX}${key}`)).toEqual({
      bytes: Buffer.from("jpeg bytes"),
      contentType: "image/jpeg",
    });
  });

  it("fails, instead of answering 'no photo', when the store refuses the secret", async () => {
    const wrong = s3PhotoBackend({ ...settings, secretAccessKey: "not-the-secret-0123456789" });
    const from = s3.requests.length;

    await expect(wrong.put(VALID_KEY, Buffer.from("x"), "image/jpeg")).rejects.toThrow();
    await expect(wrong.get(VALID_KEY)).rejects.toThrow();
    expect(s3.requests.slice(from).every((request) => !request.signed)).toBe(true);
    expect(s3.objects.has(`${S3_PHOTO_PREFIX}${VALID_KEY}`)).toBe(false);
  });

  it("fails, instead of answering 'no photo', when the bucket does not exist", async () => {
    await expect(
      s3PhotoBackend({ ...settings, bucket: "no-such-bucket" }).get(VALID_KEY),
    ).rejects.toThrow();
  });
});

// ── Any instance serves any photo ────────────────────────────────────────────────────────────

/** Sends a request to an app as the proxy would, for a signed-in student. */
function requestVia(app: Api, pathname: string, token: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${token}`);
  headers.set("x-forwarded-for", "203.0.113.9");
  headers.set(PROXY_SECRET_HEADER, TEST_PROXY_SECRET);
  return app.request(pathname, { ...init, headers });
}

async function uploadPhoto(app: Api, studentId: number, token: string, bytes: Uint8Array) {
  const form = new FormData();
  for (const name of [
    "yob",
    "mob",
    "dob",
    "religion",
    "phone",
    "marital_status",
    "email",
    "country_origin",
    "state_origin",
    "lga_origin",
  ])
    form.append(name, "");
  form.append("photo", new File([new Uint8Array(bytes)], "passport.jpg", { type: "image/jpeg" }));
  const response = await requestVia(app, `/student/biodata-update/${studentId}`, token, {
    method: "PATCH",
    body: form,
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: { photo: string } };
  return body.data.photo.replace(/^\/api/, "");
}

describe.each([
  { where: "the database", second: (): PhotoBackend => databasePhotoBackend(h.db), s3: false },
  { where: "an S3 bucket", second: (): PhotoBackend => s3PhotoBackend(settings), s3: true },
])("with photos in $where, two API instances on one database", ({ second, s3: inBucket }) => {
  let first: ApiHarness;
  let other: Api;

  beforeAll(async () => {
    first = inBucket
      ? await createApiHarness({ photos: createPhotoStorage(s3PhotoBackend(settings)) })
      : h;
    // Its own app, session cache and photo store: nothing in common with the first but the
    // database (and the bucket).
    other = createApi({ ...first.deps, photos: createPhotoStorage(second()) });
  });
  afterAll(async () => {
    if (first !== h) await first.close();
  });

  it("serve a photo uploaded through either, and forget a replaced one on both", async () => {
    const student = await first.createStudent({ phone: inBucket ? "08037770111" : "08037770112" });
    const token = await first.signIn(student.phone);

    const photoPath = await uploadPhoto(
      first.app,
      student.id,
      token,
      await makeImage(800, 960, "jpeg"),
    );
    const fromFirst = await requestVia(first.app, photoPath, token);
    const fromOther = await requestVia(other, photoPath, token);

    expect(fromOther.status).toBe(200);
    expect(fromOther.headers.get("content-type")).toBe("image/jpeg");
    expect(fromOther.headers.get("cache-control")).toBe("private, max-age=86400, immutable");
    expect(fromOther.headers.get("x-content-type-options")).toBe("nosniff");
    const served = Buffer.from(await fromOther.arrayBuffer());
    expect(served.equals(Buffer.from(await fromFirst.arrayBuffer()))).toBe(true);
    expect(served.length).toBeGreaterThan(1000);

    const replacedPath = await uploadPhoto(
      other,
      student.id,
      token,
      await makeImage(600, 720, "png"),
    );

    expect(replacedPath).not.toBe(photoPath);
    expect((await requestVia(first.app, replacedPath, token)).status).toBe(200);
    expect((await requestVia(first.app, photoPath, token)).status).toBe(404);
    expect(await first.deps.photos.read(photoPath.split("/").at(-1)!)).toBeNull();
  });
});
