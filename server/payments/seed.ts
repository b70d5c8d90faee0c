import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { SESSION_NAMES } from "../db/factories.ts";
import { feeSchedule, hostelInvoices, hostelRooms, payments, students } from "../db/schema.ts";
import { PAYMENT_LEVELS } from "../../common/payments/fees.ts";

// Full fee in naira for 2024/2025; freshers pay most (acceptance, ID card, medicals).
const FULL_FEE_NAIRA: Record<number, number> = {
  100: 120_000,
  200: 100_000,
  300: 95_000,
  400: 90_000,
  500: 85_000,
};
// Each earlier session cost this much less.
const YEARLY_RISE_NAIRA = 2_500;
const LATE_FEE_NAIRA = 5_000;

/** The naira amounts for each option at one level in one session: part is about 60% of full. */
function feesFor(level: number, session: string) {
  const yearsBefore =
    SESSION_NAMES.length - 1 - SESSION_NAMES.indexOf(session as (typeof SESSION_NAMES)[number]);
  const full = FULL_FEE_NAIRA[level]! - YEARLY_RISE_NAIRA * yearsBefore;
  const part = Math.round((full * 0.6) / 500) * 500;
  return { full, part, second_installment: full - part, latefees: LATE_FEE_NAIRA };
}

/** The fee schedule for every option, level 100–500 and the six sessions. */
export async function seedFees(db: Database) {
  const rows = SESSION_NAMES.flatMap((session) =>
    PAYMENT_LEVELS.flatMap((level) =>
      Object.entries(feesFor(level, session)).map(([paymentOption, naira]) => ({
        paymentOption,
        level,
        session,
        amountKobo: naira * 100,
      })),
    ),
  );
  await db.insert(feeSchedule).values(rows);
}

/** Hostel rooms as the college lets them. */
export async function seedHostelRooms(db: Database) {
  return db
    .insert(hostelRooms)
    .values([
      { name: "Queen Amina Hall — 4-bed room", numOfOccupants: 4 },
      { name: "Queen Amina Hall — 2-bed room", numOfOccupants: 2 },
      { name: "Ahmadu Bello Hall — 4-bed room", numOfOccupants: 4 },
      { name: "Ahmadu Bello Hall — 2-bed room", numOfOccupants: 2 },
    ])
    .returning();
}

/** What the demo's transcript fee is, in naira. */
export const DEMO_TRANSCRIPT_FEE_NAIRA = 5_000;

// Fixed demo references, so the demo slips can be opened (and benchmarked) by address.
const DEMO_REFERENCES = {
  partPayment: "CCE-20231009-4D7KQ2M9XW3P",
  hostelInvoice: "CCE-20231012-8B2N6R4T1V9C",
} as const;

/**
 * The returning demo student (08030000001) paid the first installment of 2023/2024, her
 * 100-level year, and has a hostel invoice; the fresher (08030000002) has paid nothing.
 */
export async function seedDemoPayments(db: Database) {
  await seedFees(db);
  // The bursar's college-wide transcript fee (decision 182), so the demo can request one.
  await db.insert(feeSchedule).values({
    kind: "transcript",
    paymentOption: "transcript",
    level: 0,
    session: "2024/2025",
    amountKobo: DEMO_TRANSCRIPT_FEE_NAIRA * 100,
  });
  const rooms = await seedHostelRooms(db);
  const [returning] = await db.select().from(students).where(eq(students.phone, "08030000001"));
  if (!returning) return;
  const part = feesFor(100, "2023/2024").part;
  const [fee] = await db
    .select({ id: feeSchedule.id })
    .from(feeSchedule)
    .where(
      and(
        eq(feeSchedule.paymentOption, "part"),
        eq(feeSchedule.level, 100),
        eq(feeSchedule.session, "2023/2024"),
      ),
    );
  await db.insert(payments).values({
    reference: DEMO_REFERENCES.partPayment,
    studentId: returning.id,
    paymentOption: "part",
    level: 100,
    session: "2023/2024",
    feeId: fee!.id,
    amountKobo: part * 100,
    status: "success",
    generatedAt: new Date("2023-10-09T09:12:40Z"),
    paidAt: new Date("2023-10-09T09:14:05Z"),
    channel: "card",
    gatewayResponse: "Successful",
  });
  await db.insert(hostelInvoices).values({
    studentId: returning.id,
    roomTypeId: rooms.find((room) => room.name === "Queen Amina Hall — 4-bed room")!.id,
    paymentRef: DEMO_REFERENCES.hostelInvoice,
    amountKobo: 35_000 * 100,
    session: "2023/2024",
    status: "success",
    generatedAt: new Date("2023-10-12T11:30:00Z"),
  });
}
