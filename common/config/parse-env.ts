import { z } from "zod";

/** Parses environment variables or throws one message naming each bad variable. */
export function parseEnv<T extends z.ZodType>(
  schema: T,
  source: Record<string, string | undefined>,
): z.infer<T> {
  const result = schema.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map(
    (issue) => `  - ${issue.path.join(".") || "(environment)"}: ${issue.message}`,
  );
  throw new Error(
    `Invalid configuration:\n${lines.join("\n")}\nSee .env.example for every variable.`,
  );
}

/**
 * For settings whose default is worked out (ports, URLs, counts): a blank value, as in a copied
 * .env.example (`API_PORT=`), means that default. Secrets do not use this: a blank one is refused.
 */
export function blankMeansDefault<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    schema,
  );
}
