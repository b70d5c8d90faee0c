import { describe, expect, it } from "vitest";
import { isGsm7, smsSegments } from "../sms/gsm7.ts";
import { payDetailsText, ussdLockedText } from "./sms-texts.ts";
import { USSD_LANGUAGES } from "../../common/ussd/ussd-pin.ts";

// What the USSD menu texts, at its longest values, is one GSM-7 segment, as every SMS template is
// (server/sms/templates.test.ts).
const LONGEST_REFERENCE = "CCE-20251231-ZZZZZZZZZZZZ";
const LONGEST_AMOUNT = { amountKobo: 9_999_999_99, reference: LONGEST_REFERENCE };
const FILLED = USSD_LANGUAGES.flatMap((language) => [
  ...[new Date("2025-01-15T22:59:00Z"), new Date("2025-01-15T11:00:00Z")].map(
    (until) => [`${language}: USSD locked`, ussdLockedText(language, until)] as const,
  ),
  [
    `${language}: pay by transfer`,
    payDetailsText(language, LONGEST_AMOUNT, {
      channel: "bank_transfer",
      bank_name: "First City Monument Bank Limited of Nigeria",
      account_number: "9876543210",
      account_name: "PAYSTACK-TITAN/CROWNFIELD COLLEGE OF EDUCATION",
      expires_at: "2025-12-31T22:59:00Z",
    }),
  ] as const,
  [
    `${language}: pay by RRR`,
    payDetailsText(language, LONGEST_AMOUNT, {
      channel: "remita",
      rrr: "140007752615",
      pay_online: {
        action: "https://remita.example/pay",
        fields: { merchantId: "1", hash: "h", rrr: "140007752615", responseurl: "https://x" },
      },
    }),
  ] as const,
]);

describe("what the USSD menu texts", () => {
  it.each(FILLED)("is one GSM-7 segment: %s", (_, text) => {
    expect(isGsm7(text), text).toBe(true);
    expect(smsSegments(text), text).toBe(1);
    expect(text, text).not.toMatch(/[{}]/);
  });
});
