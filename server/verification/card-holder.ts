import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { programmes, students } from "../db/schema.ts";

export type CardHolder = NonNullable<Awaited<ReturnType<typeof cardHolder>>>;

/** Who a printed result or exam card belongs to, as the documents and their checks name them. */
export async function cardHolder(db: Database, studentId: number) {
  const [row] = await db
    .select({
      surname: students.surname,
      othername: students.othername,
      matricNo: students.matricNo,
      level: students.level,
      photo: students.photo,
      programmeId: students.programmeId,
      programme: programmes.name,
    })
    .from(students)
    .innerJoin(programmes, eq(programmes.id, students.programmeId))
    .where(eq(students.id, studentId));
  if (!row) return null;
  return { ...row, name: `${row.surname} ${row.othername}` };
}

/** A record id read back from a signed token's text; null for anything a column could not hold. */
export function recordId(text: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(text)) return null;
  const id = Number(text);
  return id <= 2_147_483_647 ? id : null;
}
