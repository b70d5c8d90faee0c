// Test support: validates JSON against the schemas of the Paystack calls we use, taken from
// Paystack's published OpenAPI spec and committed beside this file, so the tests need nothing
// outside the project. Only tests and scripts import this (ajv is a dev dependency).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Ajv from "ajv";
import type { PaystackOperations } from "./openapi-extract.ts";

export const PAYSTACK_OPERATIONS_FILE = fileURLToPath(
  new URL("./schemas/paystack-operations.json", import.meta.url),
);
export const SCHEMAS_NOTE =
  "Request and response schemas of the Paystack calls the portal makes, from Paystack's published OpenAPI spec (PaystackOSS, MIT licence: see LICENSE beside this file) with $refs inlined. Do not edit: run `npm run paystack:schemas`.";

/** Returns the problems of `value` against a schema; an empty list means it conforms. */
export type ContractCheck = (value: unknown) => string[];

export function readPaystackOperations(): PaystackOperations {
  return (
    JSON.parse(readFileSync(PAYSTACK_OPERATIONS_FILE, "utf8")) as { operations: PaystackOperations }
  ).operations;
}

/** Checks for an operation's request body and for its answer with a given HTTP status. */
export function loadPaystackContract() {
  const operations = readPaystackOperations();
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const checkFor = (schema: object | undefined, what: string): ContractCheck => {
    if (!schema) throw new Error(`Paystack's spec gives no schema for ${what}`);
    const validate = ajv.compile(schema);
    return (value) =>
      validate(value)
        ? []
        : (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message}`);
  };
  return {
    request: (operation: string) =>
      checkFor(operations[operation]?.request, `${operation}'s request`),
    response: (operation: string, status: number) =>
      checkFor(
        operations[operation]?.responses[String(status)],
        `${operation} answering ${status}`,
      ),
  };
}
