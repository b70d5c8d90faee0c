// No imports: the Payment island lists these banks.

/**
 * Banks whose USSD codes Paystack's Charge API can issue (its `ussd.type`), with the name a
 * student knows them by. Any phone dials these, no data or smartphone needed.
 */
export const USSD_BANKS = [
  { code: "737", name: "GTBank" },
  { code: "919", name: "UBA" },
  { code: "822", name: "Sterling Bank" },
  { code: "966", name: "Zenith Bank" },
] as const;
export type UssdBankCode = (typeof USSD_BANKS)[number]["code"];
