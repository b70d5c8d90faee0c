import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  // The portal's tables, and the local Paystack sandbox's beside them (decision 129).
  schema: ["./server/db/schema.ts", "./server/paystack/sandbox-schema.ts"],
  out: "./server/db/migrations",
  casing: "snake_case",
});
