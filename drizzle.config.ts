import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  // The portal's tables, and the local Paystack and Remita sandboxes' beside them (decisions 129, 188).
  schema: [
    "./server/db/schema.ts",
    "./server/paystack/sandbox-schema.ts",
    "./server/remita/sandbox-schema.ts",
  ],
  out: "./server/db/migrations",
  casing: "snake_case",
});
