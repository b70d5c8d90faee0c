/**
 * Rewrites server/paystack/schemas/paystack-operations.json from Paystack's published OpenAPI
 * spec: `npm run paystack:schemas [path/to/openapi.yaml]` (default server/paystack/schemas/paystack-openapi.yaml, Paystack's published spec copied into the project).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { extractPaystackOperations } from "../server/paystack/openapi-extract.ts";
import { PAYSTACK_OPERATIONS_FILE, SCHEMAS_NOTE } from "../server/paystack/openapi-contract.ts";

const specPath = path.resolve(process.argv[2] ?? "server/paystack/schemas/paystack-openapi.yaml");
// A plain clone has no spec beside it; the committed schemas are all `npm test` needs.
if (!existsSync(specPath)) {
  console.error(
    `No Paystack OpenAPI spec at ${specPath}. Pass its path: npm run paystack:schemas -- path/to/openapi.yaml`,
  );
  process.exit(2);
}
const operations = extractPaystackOperations(parse(readFileSync(specPath, "utf8")));
const file = { $comment: SCHEMAS_NOTE, operations };
writeFileSync(PAYSTACK_OPERATIONS_FILE, `${JSON.stringify(file, null, 2)}\n`);
console.log(`Wrote ${Object.keys(operations).length} operations from ${specPath}`);
