import type { Database, Transaction } from "../../db/client.ts";
import { forgetFailedSignIns, signInStanding } from "../../auth/sign-in-limits.ts";

/** Failed sign-ins counted against the student's phone now, and whether a network must wait (decision 053). */
export async function signInFailures(db: Database, phone: string, now: Date) {
  const { failures, slowed } = await signInStanding(db, phone, now);
  return { failures, locked: slowed };
}

/** Lets the student try again at once: forgets the failed sign-ins counted against the phone. */
export async function clearSignInLockout(db: Database | Transaction, phone: string) {
  await forgetFailedSignIns(db, phone);
}
