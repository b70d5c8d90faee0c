import type { Context } from "hono";
import type { z } from "zod";
import { ApiError } from "./errors.ts";

function refuse(error: z.ZodError): never {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "body";
    fields[key] ??= issue.message;
  }
  const first = error.issues[0];
  throw new ApiError(400, first?.message ?? "Check the form and try again.", { fields });
}

/** Parses a value with a schema or throws a 400 naming each field at fault. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) refuse(result.error);
  return result.data;
}

export async function readJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ApiError(400, "The request body must be JSON.");
  }
  return parseInput(schema, body);
}

export function readQuery<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  return parseInput(schema, c.req.query());
}

export function readParams<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  return parseInput(schema, c.req.param());
}
