import { z } from "zod";

// The body of POST /transaction/initialize, as the sandbox accepts it (Paystack's
// TransactionInitialize schema, limited to the fields a school fee payment uses).
export const InitializeRequest = z.object({
  email: z.email(),
  // Paystack takes the amount in kobo, as a JSON number or a string of digits.
  amount: z
    .union([z.number(), z.string().regex(/^\d+$/).transform(Number)])
    .pipe(z.number().int().positive()),
  currency: z.enum(["NGN", "GHS", "KES", "ZAR", "USD"]).default("NGN"),
  reference: z
    .string()
    .regex(/^[A-Za-z0-9.=-]+$/)
    .max(100)
    .optional(),
  // http(s) only, so the sandbox cannot be used to redirect a browser to javascript: URLs.
  callback_url: z.url({ protocol: /^https?$/ }).optional(),
  metadata: z
    .union([z.record(z.string(), z.unknown()), z.string()])
    .transform(parseMetadata)
    .optional(),
});
export type InitializeRequest = z.infer<typeof InitializeRequest>;

/** A Paystack-style 400 body for a request that failed validation. */
export type Refusal = { status: false; message: string; type: "validation_error" };

const MESSAGES: Record<string, string> = {
  email: "Invalid Email Address Passed",
  amount: "Invalid Amount Sent",
  currency: "Currency not supported by merchant",
  reference: "Invalid transaction reference. Only -, ., = and alphanumeric characters allowed.",
  callback_url: "Invalid callback_url. Send a fully qualified http(s) URL.",
  metadata: "Invalid metadata. Send a JSON object.",
  bank_transfer: "Invalid bank_transfer. Send account_expires_at as an ISO date.",
  ussd: "Invalid USSD type. Send one of 737, 919, 822 or 966.",
  channel: "Send exactly one payment channel: bank_transfer or ussd.",
};

/** The message Paystack would give for the first field that failed validation. */
export function refusalFor(error: z.ZodError): Refusal {
  const field = String(error.issues[0]?.path[0] ?? "");
  return {
    status: false,
    message: MESSAGES[field] ?? "Invalid request body. Send a JSON object.",
    type: "validation_error",
  };
}

// Paystack also accepts metadata as a JSON string and stores the decoded object.
function parseMetadata(
  metadata: Record<string, unknown> | string,
): Record<string, unknown> | string {
  if (typeof metadata !== "string") return metadata;
  try {
    const decoded: unknown = JSON.parse(metadata);
    return decoded !== null && typeof decoded === "object" && !Array.isArray(decoded)
      ? (decoded as Record<string, unknown>)
      : metadata;
  } catch {
    return metadata;
  }
}
