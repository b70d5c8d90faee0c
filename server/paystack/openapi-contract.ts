// Test support: validates JSON against the schemas of Paystack's published OpenAPI spec.
// Only tests import this (ajv and yaml are dev dependencies).
import { readFileSync } from "node:fs";
import Ajv from "ajv";
import { parse } from "yaml";

const SPEC = new URL("../../../shared/paystack/openapi.yaml", import.meta.url);
const COMPONENT_REF = "#/components/schemas/";

/** Returns the problems of `value` against a schema; an empty list means it conforms. */
export type ContractCheck = (value: unknown) => string[];

/** Loads the spec once and hands out a check per `components.schemas` name. */
export function loadPaystackContract(): (schemaName: string) => ContractCheck {
  const spec = parse(readFileSync(SPEC, "utf8")) as { components: { schemas: object } };
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: "paystack", definitions: toJsonSchema(spec.components.schemas) });

  return (schemaName) => {
    const validate = ajv.getSchema(`paystack#/definitions/${schemaName}`);
    if (!validate) throw new Error(`${schemaName} is not in Paystack's components.schemas`);
    return (value) =>
      validate(value)
        ? []
        : (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message}`);
  };
}

/**
 * OpenAPI 3.0 schema → JSON Schema: `$ref`s point into `definitions`, and `nullable: true`
 * becomes an explicit null alternative (ajv refuses `nullable` without `type`).
 */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== "object") return node;

  const { nullable, ...rest } = node as Record<string, unknown>;
  const schema = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, toJsonSchema(value)]),
  );
  if (typeof schema.$ref === "string" && schema.$ref.startsWith(COMPONENT_REF)) {
    schema.$ref = `#/definitions/${schema.$ref.slice(COMPONENT_REF.length)}`;
  }
  // `nullable` is a schema keyword only when it is a boolean; otherwise it names a property.
  if (typeof nullable !== "boolean") {
    return nullable === undefined ? schema : { ...schema, nullable: toJsonSchema(nullable) };
  }
  if (!nullable) return schema;
  if (typeof schema.$ref === "string") return { anyOf: [schema, { type: "null" }] };
  if (typeof schema.type === "string") schema.type = [schema.type, "null"];
  if (Array.isArray(schema.enum)) schema.enum = [...schema.enum, null];
  // Without a type the schema already admits null.
  return schema;
}
