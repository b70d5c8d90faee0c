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

const NUL_CHARACTER =
  "That text contains an invisible character (U+0000) that cannot be stored. Retype it and try again.";

/** Where the first string holding U+0000 is (PostgreSQL text cannot store it); null if none. */
function nulCharacterAt(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulCharacterAt(item, [...path, String(index)]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return null;
    for (const [key, item] of Object.entries(value)) {
      const found = nulCharacterAt(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/** Parses a value with a schema or throws a 400 naming each field at fault. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) refuse(result.error);
  const nulAt = nulCharacterAt(result.data);
  if (nulAt) {
    throw new ApiError(400, NUL_CHARACTER, {
      fields: { [nulAt.join(".") || "body"]: NUL_CHARACTER },
    });
  }
  return result.data;
}

/**
 * Reads a JSON body labelled as JSON. Any other label is refused: a page on another site can
 * post text/plain without asking the browser first, and JSON under that label is not a mistake
 * a client of ours makes.
 */
export async function readJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  if (!/^application\/json\s*(;|$)/i.test(c.req.header("content-type") ?? "")) {
    throw new ApiError(415, "Send the request body as JSON (Content-Type: application/json).");
  }
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

/**
 * Reads the address's parameters. An id past the largest the database holds names no record:
 * 404, as an unknown id below it is (a schema's only "too big" refusal is RecordId's).
 */
export function readParams<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  const result = schema.safeParse(c.req.param());
  if (!result.success && result.error.issues.every((issue) => issue.code === "too_big")) {
    throw new ApiError(404, result.error.issues[0]?.message ?? "There is nothing at this address.");
  }
  return parseInput(schema, c.req.param());
}
