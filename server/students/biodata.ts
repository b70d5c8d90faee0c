import { and, eq, ne, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { students } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { parseInput } from "../http/validate.ts";
import type { Logger } from "../http/logger.ts";
import type { FileStorage } from "../uploads/file-storage.ts";
import { processPassportPhoto, UploadError } from "../uploads/passport-photo.ts";
import {
  BIODATA_LOCKED,
  BiodataForm,
  resolveBiodataUpdate,
  type BiodataChanges,
} from "../../src/lib/students/biodata.ts";

type StudentRow = typeof students.$inferSelect;

/** What the update needs from outside. */
export type BiodataDeps = { db: Database; photos: FileStorage; now: () => Date; logger: Logger };

const TEXT_FIELDS = Object.keys(BiodataForm.shape) as (keyof BiodataForm)[];

/** Refuses a change to a record the registry has locked. */
export function assertUnlocked(student: Pick<StudentRow, "biodataLocked">) {
  if (student.biodataLocked) throw new ApiError(403, BIODATA_LOCKED);
}

/**
 * Applies a biodata form (multipart fields as the spec names them, plus an optional `photo`
 * file) to the signed-in student's record and returns the updated row. Nothing is stored
 * unless every field passes: 400 per field, 409 for a phone or e-mail of another student,
 * 413/415/400 for the photo, 403 for a locked record. A replaced photo file is deleted.
 */
export async function updateBiodata(
  deps: BiodataDeps,
  student: StudentRow,
  form: FormData,
): Promise<StudentRow> {
  const fields: Record<string, unknown> = {};
  for (const name of TEXT_FIELDS) fields[name] = single(form, name);
  const parsed = parseInput(BiodataForm, fields);
  const resolution = resolveBiodataUpdate(
    {
      dob: student.dob,
      mob: student.mob,
      yob: student.yob,
      country_origin: student.countryOrigin,
      state_origin: student.stateOrigin,
      lga_origin: student.lgaOrigin,
    },
    parsed,
    deps.now(),
  );
  if (!resolution.ok) {
    const [message] = Object.values(resolution.fields);
    throw new ApiError(400, message!, { fields: resolution.fields });
  }
  const changes = resolution.changes;
  await refuseTakenContacts(deps.db, student.id, changes);

  const photo = await readPhoto(single(form, "photo"));
  const newKey = photo ? await deps.photos.save(photo, "jpg") : null;
  try {
    const { row, oldKey } = await saveChanges(deps, student.id, changes, newKey);
    // The update is saved: a file left behind is only clutter, not a reason to report failure.
    if (newKey && oldKey) {
      await deps.photos.remove(oldKey).catch((error: unknown) => {
        deps.logger.warn("old passport photo not removed", { key: oldKey, error: String(error) });
      });
    }
    return row;
  } catch (error) {
    if (newKey) await deps.photos.remove(newKey);
    if (isUniqueViolation(error)) {
      // Another update took the number or address between our check and this write.
      await refuseTakenContacts(deps.db, student.id, changes);
    }
    throw error;
  }
}

function single(form: FormData, name: string): FormDataEntryValue | undefined {
  const values = form.getAll(name);
  if (values.length > 1) {
    throw new ApiError(400, `Send the ${name} field once.`, {
      fields: { [name]: "Sent more than once." },
    });
  }
  return values[0];
}

// A form without a chosen file sends "" or an empty file part: both mean "keep the photo".
async function readPhoto(value: FormDataEntryValue | undefined): Promise<Buffer | null> {
  if (value === undefined || value === "") return null;
  if (typeof value === "string") {
    const message = "Send the passport photo as a file.";
    throw new ApiError(400, message, { fields: { photo: message } });
  }
  if (value.size === 0) return null;
  try {
    const photo = await processPassportPhoto(new Uint8Array(await value.arrayBuffer()));
    return photo.bytes;
  } catch (error) {
    if (error instanceof UploadError) {
      throw new ApiError(error.status, error.message, { fields: { photo: error.message } });
    }
    throw error;
  }
}

const PHONE_TAKEN =
  "That phone number is already used by another student's account. Enter your own number.";
const EMAIL_TAKEN =
  "That e-mail address is already used by another student's account. Enter your own address.";

async function refuseTakenContacts(db: Database, ownId: number, changes: BiodataChanges) {
  const taken: Record<string, string> = {};
  if (changes.phone && (await usedByAnother(db, ownId, eq(students.phone, changes.phone)))) {
    taken.phone = PHONE_TAKEN;
  }
  const email = changes.email;
  if (email && (await usedByAnother(db, ownId, sql`lower(${students.email}) = ${email}`))) {
    taken.email = EMAIL_TAKEN;
  }
  const [message] = Object.values(taken);
  if (message) throw new ApiError(409, message, { fields: taken });
}

async function usedByAnother(db: Database, ownId: number, condition: ReturnType<typeof eq>) {
  const [row] = await db
    .select({ id: students.id })
    .from(students)
    .where(and(condition, ne(students.id, ownId)))
    .limit(1);
  return row !== undefined;
}

// Locked is read again under a row lock: the registry may have locked the record since sign-in.
async function saveChanges(
  deps: BiodataDeps,
  id: number,
  changes: BiodataChanges,
  photoKey: string | null,
) {
  return deps.db.transaction(async (tx) => {
    const [current] = await tx.select().from(students).where(eq(students.id, id)).for("update");
    if (!current) throw new ApiError(404, "Your student record no longer exists.");
    assertUnlocked(current);
    const [row] = await tx
      .update(students)
      .set({
        email: changes.email,
        phone: changes.phone,
        religion: changes.religion,
        maritalStatus: changes.marital_status,
        dob: changes.dob,
        mob: changes.mob,
        yob: changes.yob,
        countryOrigin: changes.country_origin,
        stateOrigin: changes.state_origin,
        lgaOrigin: changes.lga_origin,
        ...(photoKey ? { photo: photoKey } : {}),
        updatedAt: deps.now(),
      })
      .where(eq(students.id, id))
      .returning();
    return { row: row!, oldKey: current.photo };
  });
}

function isUniqueViolation(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ("code" in cause && cause.code === "23505") return true;
  }
  return false;
}
