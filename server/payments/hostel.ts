import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { preparedQuery } from "../db/prepared.ts";
import { hostelInvoices, hostelRooms } from "../db/schema.ts";
import type { HostelInvoice } from "../../common/payments/payment-record.ts";

const invoiceColumns = { invoice: hostelInvoices, room: hostelRooms };
type InvoiceRow = {
  invoice: typeof hostelInvoices.$inferSelect;
  room: typeof hostelRooms.$inferSelect;
};

function toHostelInvoice({ invoice, room }: InvoiceRow): HostelInvoice {
  return {
    payment_ref: invoice.paymentRef,
    generated_date: invoice.generatedAt.toISOString(),
    amount: invoice.amountKobo / 100,
    session: invoice.session,
    payment_status: invoice.status,
    room_type: { name: room.name, num_of_occupants: room.numOfOccupants },
  };
}

// The payment history asks on every visit.
const invoicesOfStudent = preparedQuery((db) =>
  db
    .select(invoiceColumns)
    .from(hostelInvoices)
    .innerJoin(hostelRooms, eq(hostelRooms.id, hostelInvoices.roomTypeId))
    .where(eq(hostelInvoices.studentId, sql.placeholder("studentId")))
    .orderBy(desc(hostelInvoices.generatedAt), desc(hostelInvoices.id))
    .prepare("hostel_invoices_of_student"),
);

/** Every hostel invoice of a student, newest first. */
export async function hostelInvoicesOf(db: Database, studentId: number): Promise<HostelInvoice[]> {
  const rows = await invoicesOfStudent(db).execute({ studentId });
  return rows.map(toHostelInvoice);
}

/** One hostel invoice by its reference, with the student it belongs to; null when unknown. */
export async function findHostelInvoice(db: Database, paymentRef: string, studentId?: number) {
  const [row] = await db
    .select(invoiceColumns)
    .from(hostelInvoices)
    .innerJoin(hostelRooms, eq(hostelRooms.id, hostelInvoices.roomTypeId))
    .where(
      and(
        eq(hostelInvoices.paymentRef, paymentRef),
        studentId === undefined ? undefined : eq(hostelInvoices.studentId, studentId),
      ),
    );
  return row ? { studentId: row.invoice.studentId, invoice: toHostelInvoice(row) } : null;
}
