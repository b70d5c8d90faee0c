import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readPaystackOperations } from "./openapi-contract.ts";
import { extractPaystackOperations } from "./openapi-extract.ts";

// Paystack's published spec is kept beside the project on our own machines, not in it. The
// contract tests use the schemas committed from it; this checks those are still what the spec
// says, and is skipped (not failed) on a clone that has no spec beside it.
const SPEC = new URL("../../../shared/paystack/openapi.yaml", import.meta.url);
const specIsHere = existsSync(SPEC);

describe.skipIf(!specIsHere)(
  "the committed Paystack schemas (needs ../shared/paystack/openapi.yaml)",
  () => {
    it("are the ones Paystack's OpenAPI spec gives; else run `npm run paystack:schemas`", () => {
      const spec = parse(readFileSync(SPEC, "utf8"));
      expect(readPaystackOperations()).toEqual(extractPaystackOperations(spec));
    });
  },
);

describe("extracting schemas from an OpenAPI spec", () => {
  const spec = (schemas: Record<string, unknown>) => ({
    paths: {
      "/transaction/initialize": {
        post: {
          requestBody: {
            content: { "application/json": { schema: { $ref: "#/components/schemas/Request" } } },
          },
          responses: {
            "200": { $ref: "#/components/responses/Ok" },
            default: { description: "Server error" },
          },
        },
      },
      "/transaction/verify/{reference}": { get: { responses: {} } },
      "/charge": { post: { responses: {} } },
      "/transaction": { get: { responses: {} } },
      "/refund": { post: { responses: {} } },
    },
    components: {
      schemas,
      responses: {
        Ok: {
          content: { "application/json": { schema: { $ref: "#/components/schemas/Answer" } } },
        },
      },
    },
  });

  it("inlines $refs and turns `nullable` into a null alternative", () => {
    const operations = extractPaystackOperations(
      spec({
        Request: { type: "object", properties: { amount: { type: "integer", nullable: true } } },
        Answer: { type: "object", properties: { nullable: { type: "string" } } },
      }),
    );
    expect(operations["POST /transaction/initialize"]).toEqual({
      request: { type: "object", properties: { amount: { type: ["integer", "null"] } } },
      responses: { "200": { type: "object", properties: { nullable: { type: "string" } } } },
    });
  });

  it("refuses a schema that refers to itself", () => {
    const looping = spec({ Request: { $ref: "#/components/schemas/Request" }, Answer: {} });
    expect(() => extractPaystackOperations(looping)).toThrow(/refers to itself/);
  });
});
