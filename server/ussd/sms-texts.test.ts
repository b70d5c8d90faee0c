import { describe, expect, it } from "vitest";
import { isGsm7, smsSegments } from "../sms/gsm7.ts";
import { payDetailsText, ussdLockedText } from "./sms-texts.ts";

// What the USSD menu texts, at its longest values, is one GSM-7 segment, as every SMS template is
// (server/sms/templates.test.ts).
const LONGEST_REFERENCE = "CCE-20251231-ZZZZZZZZZZZZ";
const LONGEST_AMOUNT = { amountKobo: 9_999_999_99, reference: LONGEST_REFERENCE };
const FILLED = {
  "USSD locked": [new Date("2025-01-15T22:59:00Z"), new Date("2025-01-15T11:00:00Z")].map(
    ussdLockedText,
  ),
  "pay details": [
    payDetailsText(LONGEST_AMOUNT, {
      channel: "bank_transfer",
      bank_name: "First City Monument Bank Limited of Nigeria",
      account_number: "9876543210",
      account_name: "PAYSTACK-TITAN/CROWNFIELD COLLEGE OF EDUCATION",
      expires_at: "2025-12-31T22:59:00Z",
    }),
    payDetailsText(LONGEST_AMOUNT, {
      channel: "remita",
      rrr: "140007752615",
      pay_online: {
        action: "https://remita.example/pay",
        fields: { merchantId: "1", hash: "h", rrr: "140007752615", responseurl: "https://x" },
      },
    }),
  ],
};

describe.each(Object.entries(FILLED))("the %s SMS", (_, texts) => {
  it.each(texts)("is one GSM-7 segment: %s", (text) => {
    expect(isGsm7(text)).toBe(true);
    expect(smsSegments(text)).toBe(1);
  });
});
