/**
 * How long a toast stays, by what it says (docs/decisions/061). Confirmations go after the spec's
 * 2 seconds and notices after its default 5; a refusal stays until the student dismisses it,
 * because it says what to do next and nobody reads "wait 15 minutes" or a fee rule in 2 seconds.
 */
export const TOAST_DURATION_MS = {
  success: 2000,
  info: 5000,
  warning: 5000,
  error: Number.POSITIVE_INFINITY,
} as const;

export type ToastTone = keyof typeof TOAST_DURATION_MS;
