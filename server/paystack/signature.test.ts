import { describe, expect, it } from "vitest";
import { isValidPaystackSignature, signPaystackPayload } from "./signature.ts";

const SECRET = "sk_test_sandbox";
const BODY = '{"event":"charge.success","data":{"reference":"FEES-2025-0001","amount":2500000}}';
// Computed independently: printf '%s' "$BODY" | openssl dgst -sha512 -hmac sk_test_sandbox
const OPENSSL_SIGNATURE =
  "262ed40bf41c2352a60f400d1605a7579a090b6c3418b7d0219cda70a5586d1595c24e87dcaa383e62cfc914f9081307ed3acaf105a5dffa7ff0ddd7116797af";

describe("signPaystackPayload", () => {
  it("is the hex HMAC-SHA512 of the raw body", () => {
    expect(signPaystackPayload(BODY, SECRET)).toBe(OPENSSL_SIGNATURE);
  });
});

describe("isValidPaystackSignature", () => {
  const flipped = (OPENSSL_SIGNATURE[0] === "0" ? "1" : "0") + OPENSSL_SIGNATURE.slice(1);

  it.each([
    { case: "the right signature", body: BODY, signature: OPENSSL_SIGNATURE, valid: true },
    {
      case: "the right signature in upper case",
      body: BODY,
      signature: OPENSSL_SIGNATURE.toUpperCase(),
      valid: true,
    },
    { case: "a missing header (null)", body: BODY, signature: null, valid: false },
    { case: "a missing header (undefined)", body: BODY, signature: undefined, valid: false },
    { case: "an empty header", body: BODY, signature: "", valid: false },
    {
      case: "a tampered body",
      body: BODY.replace("2500000", "2500001"),
      signature: OPENSSL_SIGNATURE,
      valid: false,
    },
    {
      case: "a body re-serialised with spaces",
      body: JSON.stringify(JSON.parse(BODY), null, 1),
      signature: OPENSSL_SIGNATURE,
      valid: false,
    },
    { case: "one changed hex digit", body: BODY, signature: flipped, valid: false },
    {
      case: "a signature made with another key",
      body: BODY,
      signature: signPaystackPayload(BODY, "sk_test_other"),
      valid: false,
    },
    {
      case: "a truncated signature",
      body: BODY,
      signature: OPENSSL_SIGNATURE.slice(0, 126),
      valid: false,
    },
    {
      case: "an odd-length signature",
      body: BODY,
      signature: OPENSSL_SIGNATURE.slice(1),
      valid: false,
    },
    {
      case: "a signature that is too long",
      body: BODY,
      signature: `${OPENSSL_SIGNATURE}00`,
      valid: false,
    },
    { case: "non-hex of the right length", body: BODY, signature: "z".repeat(128), valid: false },
    {
      case: "surrounding whitespace",
      body: BODY,
      signature: ` ${OPENSSL_SIGNATURE} `,
      valid: false,
    },
    {
      case: "a SHA-256 HMAC instead of SHA-512",
      body: BODY,
      signature: OPENSSL_SIGNATURE.slice(0, 64),
      valid: false,
    },
  ])("$case → $valid", ({ body, signature, valid }) => {
    expect(isValidPaystackSignature(body, signature, SECRET)).toBe(valid);
  });

  it("refuses everything when the secret key is empty", () => {
    expect(isValidPaystackSignature(BODY, signPaystackPayload(BODY, ""), "")).toBe(false);
  });
});
