/**
 * The number a provider wants (+2348031234567) from the record's local form (08031234567, as
 * NigerianPhone stores it). Anything else is a programming error, not a student's typing.
 */
export function internationalPhone(localPhone: string): string {
  if (!/^0\d{10}$/.test(localPhone))
    throw new Error("internationalPhone takes a stored number such as 08031234567");
  return `+234${localPhone.slice(1)}`;
}
