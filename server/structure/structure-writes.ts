import { eq } from "drizzle-orm";
import type { Transaction } from "../db/client.ts";
import { courseMappings, courses, departments, faculties, programmes } from "../db/schema.ts";
import { changedFields, recordAudit } from "../audit/audit.ts";

/** Who makes a change and when: every write below leaves an audit row in the same transaction. */
/** Who writes, when, and (in an import) the summary row their audit rows belong to. */
export type Author = { staffId: number; at: Date; partOf?: number };

type Row = { id: number } & Record<string, unknown>;

/** Records a create (no `existing`) or the changed fields of an update; nothing when nothing changed. */
async function audit(
  tx: Transaction,
  author: Author,
  entity: string,
  existing: Row | null,
  saved: Row,
) {
  const { id, ...after } = saved;
  if (!existing) {
    await recordAudit(
      tx,
      {
        staffId: author.staffId,
        action: `${entity}.create`,
        entity,
        entityId: id,
        after,
        partOf: author.partOf,
      },
      author.at,
    );
    return;
  }
  const diff = changedFields(existing, after);
  if (!diff.changed) return;
  await recordAudit(
    tx,
    {
      staffId: author.staffId,
      action: `${entity}.update`,
      entity,
      entityId: id,
      before: diff.before,
      after: diff.after,
      partOf: author.partOf,
    },
    author.at,
  );
}

export type FacultyValues = { name: string };
export type DepartmentValues = { name: string; facultyId: number };
export type ProgrammeValues = { name: string; facultyId: number; finalLevel: number };
export type CourseValues = { code: string; title: string; unit: number; semester: number };
export type MappingValues = {
  courseId: number;
  programmeId: number;
  level: number;
  semester: number;
};

export async function saveFaculty(
  tx: Transaction,
  author: Author,
  existing: Row | null,
  values: FacultyValues,
) {
  const [saved] = existing
    ? await tx.update(faculties).set(values).where(eq(faculties.id, existing.id)).returning()
    : await tx.insert(faculties).values(values).returning();
  await audit(tx, author, "faculty", existing, saved!);
  return saved!;
}

export async function saveDepartment(
  tx: Transaction,
  author: Author,
  existing: Row | null,
  values: DepartmentValues,
) {
  const [saved] = existing
    ? await tx.update(departments).set(values).where(eq(departments.id, existing.id)).returning()
    : await tx.insert(departments).values(values).returning();
  await audit(tx, author, "department", existing, saved!);
  return saved!;
}

export async function saveProgramme(
  tx: Transaction,
  author: Author,
  existing: Row | null,
  values: ProgrammeValues,
) {
  const [saved] = existing
    ? await tx.update(programmes).set(values).where(eq(programmes.id, existing.id)).returning()
    : await tx.insert(programmes).values(values).returning();
  await audit(tx, author, "programme", existing, saved!);
  return saved!;
}

export async function saveCourse(
  tx: Transaction,
  author: Author,
  existing: Row | null,
  values: CourseValues,
) {
  const [saved] = existing
    ? await tx.update(courses).set(values).where(eq(courses.id, existing.id)).returning()
    : await tx.insert(courses).values(values).returning();
  await audit(tx, author, "course", existing, saved!);
  return saved!;
}

export async function saveMapping(
  tx: Transaction,
  author: Author,
  existing: Row | null,
  values: MappingValues,
) {
  const [saved] = existing
    ? await tx
        .update(courseMappings)
        .set(values)
        .where(eq(courseMappings.id, existing.id))
        .returning()
    : await tx.insert(courseMappings).values(values).returning();
  await audit(tx, author, "course_mapping", existing, saved!);
  return saved!;
}

/** Whether `row` would change if `values` were saved over it. */
export function differs(row: Record<string, unknown>, values: Record<string, unknown>) {
  return Object.entries(values).some(([key, value]) => row[key] !== value);
}
