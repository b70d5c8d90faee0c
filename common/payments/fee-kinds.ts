/**
 * What a fee or a payment is for (decision 182). Only school fees count towards a session's fees,
 * the results fee gate and the one-success-per-option rule; every other kind is one price for the
 * whole college, set by the bursar, and paid for one thing (a transcript request).
 */
export const FEE_KINDS = ["school_fee", "transcript"] as const;
export type FeeKind = (typeof FEE_KINDS)[number];

/** The kinds the bursar sets as one college-wide price, with the words pages use for them. */
export const OTHER_FEE_KINDS = [{ kind: "transcript", label: "Transcript fee" }] as const;
export type OtherFeeKind = (typeof OTHER_FEE_KINDS)[number]["kind"];

/** The payment option a payment of another kind is stored under (no school-fee option is named so). */
export const TRANSCRIPT_OPTION = "transcript";
