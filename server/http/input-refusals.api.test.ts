import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count } from "drizzle-orm";
import { complaints, rateLimits } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";

let api: ApiHarness;
let token: string;

beforeAll(async () => {
  api = await createApiHarness();
  await api.createStudent({ phone: "08036660000", password: "refusal-pass" });
  token = await api.signIn("08036660000", "refusal-pass");
});
afterAll(() => api.close());

const NUL_MESSAGE =
  "That text contains an invisible character (U+0000) that cannot be stored. Retype it and try again.";

describe("a U+0000 character, which PostgreSQL text cannot hold", () => {
  it.each([
    [
      "sign-in",
      "/student/uniben/login",
      { method: "POST", json: { username: "0803\u00006660000", password: "x" } },
      "username",
    ],
    [
      "a complaint subject",
      "/complaint/",
      { method: "POST", json: { subject: "Fees\u0000", message: "m" } },
      "subject",
    ],
    [
      "a complaint message",
      "/complaint/",
      { method: "POST", json: { subject: "Fees", message: "a\u0000b" } },
      "message",
    ],
    ["a course search", "/courses/all/?code=BI%00O", {}, "code"],
  ] as const)("in %s is a 400 naming the field, not a 500", async (_case, path, init, field) => {
    const response = await api.request(path, { token, ...init });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.message).toBe(NUL_MESSAGE);
    expect(body.error.fields).toEqual({ [field]: NUL_MESSAGE });
  });

  it("changes nothing: no complaint stored, no failed sign-in counted", async () => {
    const [stored] = await api.db.select({ n: count() }).from(complaints);
    expect(stored!.n).toBe(0);
    const counted = await api.db.select({ hits: rateLimits.hits }).from(rateLimits);
    expect(counted.every((row) => row.hits === 0)).toBe(true);
  });
});

describe("the 64 KiB limit on JSON bodies", () => {
  const huge = JSON.stringify({ username: "08036660000", password: "x", pad: "y".repeat(200_000) });

  it.each(["multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "text/plain"])(
    "holds whatever content type (%s) the request claims",
    async (type) => {
      for (const [path, withToken] of [
        ["/student/uniben/login", false],
        ["/paystack/webhook", false],
        ["/complaint/", true],
      ] as const) {
        const response = await api.request(path, {
          method: "POST",
          headers: { "content-type": type },
          body: huge,
          ...(withToken ? { token } : {}),
        });
        expect([path, response.status]).toEqual([path, 413]);
      }
    },
  );
});

describe("JSON under another label", () => {
  it.each(["text/plain", "application/x-www-form-urlencoded", ""])(
    "(%s) is refused with 415 and stores nothing",
    async (type) => {
      const response = await api.request("/complaint/", {
        method: "POST",
        token,
        headers: type ? { "content-type": type } : {},
        body: JSON.stringify({ subject: "Fees", message: "Labelled as something else" }),
      });
      expect(response.status).toBe(415);
      expect((await response.json()).error.message).toBe(
        "Send the request body as JSON (Content-Type: application/json).",
      );
      const [stored] = await api.db.select({ n: count() }).from(complaints);
      expect(stored!.n).toBe(0);
    },
  );
});
