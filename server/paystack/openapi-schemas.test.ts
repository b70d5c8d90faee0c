import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readPaystackOperations } from "./openapi-contract.ts";
import { extractPaystackOperations } from "./openapi-extract.ts";

// Paystack's published spec (MIT, copied with its licence into schemas/). The contract tests use
// the schemas extracted from it; this checks those are still what the spec says.
const SPEC = new URL("./schemas/paystack-openapi.yaml", import.meta.url);

describe("the committed Paystack schemas", () => {
  it("are the ones Paystack's OpenAPI spec gives; else run `npm run paystack:schemas`", () => {
    const spec = parse(readFileSync(SPEC, "utf8"));
    expect(readPaystackOperations()).toEqual(extractPaystackOperations(spec));
  });
});

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
      "/refund": { post: { responses: {} }, get: { responses: {} } },
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
