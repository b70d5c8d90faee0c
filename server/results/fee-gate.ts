import { and, eq, sql } from "drizzle-orm";
import { preparedQuery } from "../db/prepared.ts";
import type { Database } from "../db/client.ts";
import { payments } from "../db/schema.ts";
import { paymentCompleteFrom } from "../../common/payments/fee-status.ts";

const schoolFeesPaid = preparedQuery((db) =>
  db
    .select({ session: payments.session, option: payments.paymentOption })
    .from(payments)
    .where(
      and(
        eq(payments.studentId, sql.placeholder("studentId")),
        eq(payments.status, "success"),
        // A transcript paid in the session is not its school fee (decision 182).
        eq(payments.kind, "school_fee"),
      ),
    )
    .prepare("school_fees_paid"),
);

/** The school-fee options credited to a student, by session: every session in one read. */
export async function paidOptionsBySession(db: Database, studentId: number) {
  const rows = await schoolFeesPaid(db).execute({ studentId });
  const bySession = new Map<string, string[]>();
  for (const row of rows)
    bySession.set(row.session, [...(bySession.get(row.session) ?? []), row.option]);
  return bySession;
}

/** The school-fee options credited to a student in a session, at whatever level. */
export async function paidOptions(db: Database, studentId: number, session: string) {
  return (await paidOptionsBySession(db, studentId)).get(session) ?? [];
}

/**
 * Whether what a student paid in a session covers one of its semesters: the fee paid in full
 * covers both, its first installment the first (decision 176). "part" when only the first
 * installment is paid and the second semester is asked about; "none" when nothing is paid.
 */
export function semesterFee(paid: readonly string[], semester: number): "paid" | "part" | "none" {
  const complete = paymentCompleteFrom(paid);
  if (complete === "full" || (complete === "part" && semester === 1)) return "paid";
  return complete === "part" ? "part" : "none";
}
