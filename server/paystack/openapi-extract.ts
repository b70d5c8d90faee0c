// Turns the parts of Paystack's published OpenAPI spec that the portal uses into standalone
// JSON Schemas. Used by scripts/paystack-schemas.ts to write schemas/paystack-operations.json
// and by the test that checks that file against the spec when the spec is at hand.

/** The Paystack calls the client makes and the sandbox answers. */
export const USED_OPERATIONS = [
  { method: "post", path: "/transaction/initialize" },
  { method: "get", path: "/transaction/verify/{reference}" },
  { method: "post", path: "/charge" },
  // The bursary's reconciliation and refunds (decisions 101, 102).
  { method: "get", path: "/transaction" },
  { method: "post", path: "/refund" },
  // Finding a refund whose create answer was lost (decision 141).
  { method: "get", path: "/refund" },
] as const;

/** `"POST /transaction/initialize"` → its request body schema and a schema per answered status. */
export type PaystackOperations = Record<
  string,
  { request?: JsonSchema; responses: Record<string, JsonSchema> }
>;
type JsonSchema = Record<string, unknown>;
type Spec = {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
};
type Content = { content?: Record<string, { schema?: unknown }> };
/** An answer may itself be a `$ref` to `components.responses`. */
type Operation = { requestBody?: Content; responses: Record<string, unknown> };

const JSON_MEDIA = "application/json";

export function extractPaystackOperations(spec: Spec): PaystackOperations {
  const resolve = (node: unknown) => inline(node, spec, []);
  const operations: PaystackOperations = {};
  for (const { method, path } of USED_OPERATIONS) {
    const operation = spec.paths[path]?.[method];
    if (!operation) throw new Error(`Paystack's spec has no ${method.toUpperCase()} ${path}`);
    const request = operation.requestBody?.content?.[JSON_MEDIA]?.schema;
    const responses: Record<string, JsonSchema> = {};
    for (const [status, answer] of Object.entries(operation.responses)) {
      const schema = (resolve(answer) as Content).content?.[JSON_MEDIA]?.schema;
      if (schema) responses[status] = schema as JsonSchema;
    }
    operations[`${method.toUpperCase()} ${path}`] = {
      ...(request ? { request: resolve(request) as JsonSchema } : {}),
      responses,
    };
  }
  return operations;
}

/**
 * Replaces every `#/components/...` `$ref` by what it points at and turns OpenAPI 3.0's
 * `nullable: true` into JSON Schema (a null alternative), which ajv needs.
 */
function inline(node: unknown, spec: Spec, trail: string[]): unknown {
  if (Array.isArray(node)) return node.map((item) => inline(item, spec, trail));
  if (node === null || typeof node !== "object") return node;

  const { $ref, nullable, ...rest } = node as Record<string, unknown>;
  if (typeof $ref === "string") {
    if (trail.includes($ref)) throw new Error(`${$ref} refers to itself: cannot inline it`);
    const [, , kind, name] = $ref.split("/");
    const target = $ref.startsWith("#/components/") ? spec.components[kind!]?.[name!] : undefined;
    if (target === undefined) throw new Error(`unknown $ref ${$ref}`);
    const resolved = inline(target, spec, [...trail, $ref]);
    return nullable === true ? { anyOf: [resolved, { type: "null" }] } : resolved;
  }
  const schema = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, inline(value, spec, trail)]),
  );
  // `nullable` is a keyword only when it is a boolean; otherwise it names a property.
  if (typeof nullable !== "boolean") {
    return nullable === undefined ? schema : { ...schema, nullable: inline(nullable, spec, trail) };
  }
  if (!nullable) return schema;
  if (typeof schema.type === "string") schema.type = [schema.type, "null"];
  if (Array.isArray(schema.enum)) schema.enum = [...schema.enum, null];
  // Without a type the schema already admits null.
  return schema;
}
