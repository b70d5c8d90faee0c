const grouping = new Intl.NumberFormat("en-NG", { maximumFractionDigits: 2 });

/** "150,000" — naira with comma grouping, kobo shown only when there are some. */
export const formatAmount = (naira: number) => grouping.format(naira);

/** "₦150,000" */
export const formatNaira = (naira: number) => `₦${formatAmount(naira)}`;

export const koboToNaira = (kobo: number) => kobo / 100;
