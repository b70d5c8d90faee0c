// Kept apart from biodata.ts (which needs zod) so the biodata island can import these lists
// without shipping a validation library to the browser.

/** Religions a student can choose (spec section 9). */
export const RELIGIONS = ["Christianity", "Islam", "Others"] as const;

/** Marital statuses as the spec spells them; "Seperated" is the value stored and shown. */
export const MARITAL_STATUSES = ["Single", "Married", "Seperated"] as const;

/** The one country whose states and LGAs the portal knows and checks. */
export const NIGERIA = "Nigeria";
