import { eq } from "drizzle-orm";
import { z } from "zod";
import type { ApiDeps } from "../deps.ts";
import { students } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { parseInput } from "../http/validate.ts";
import type { PhotoStorage } from "../uploads/photo-storage.ts";
import { processPassportPhoto, UploadError } from "../uploads/passport-photo.ts";
import {
  BiodataForm,
  resolveBiodataUpdate,
  type BiodataChanges,
} from "../../common/students/biodata.ts";
import { assertUnlocked } from "./biodata-lock.ts";
import { assertMayChangeContacts } from "./contact-change-guard.ts";
import { contactChangesOf, requestContactChange } from "./contact-change.ts";

type StudentRow = typeof students.$inferSelect;

/** What the update needs from outside. */
export type BiodataDeps = Pick<
  ApiDeps,
  "db" | "now" | "logger" | "jobs" | "publicOrigin" | "supportEmail"
> & { photos: PhotoStorage };

/** The updated row, and the sentence about a phone or e-mail change waiting for its link. */
export type BiodataUpdate = { row: StudentRow; contactChangeSent: string | null };

const TEXT_FIELDS = Object.keys(BiodataForm.shape) as (keyof BiodataForm)[];

// Not a biodata field: only checked when the phone number or e-mail changes.
const CurrentPassword = z.object({
  current_password: z
    .string()
    .max(200, "That password is too long.")
    .optional()
    .transform((value) => value || undefined),
});

/**
 * Applies a biodata form (multipart fields as the spec names them, plus an optional `photo`
 * file and `current_password`) to the signed-in student's record. Nothing is stored unless
 * every field passes: 400 per field, 413/415/400 for the photo, 403 for a locked record, 400
 * and 403 for a missing or wrong current password when the phone or e-mail changes. Those two
 * are not stored here: they wait for the student to open a mailed link (decision 056). A
 * replaced photo file is deleted.
 */
export async function updateBiodata(
  deps: BiodataDeps,
  student: StudentRow,
  form: FormData,
): Promise<BiodataUpdate> {
  const fields: Record<string, unknown> = {};
  for (const name of TEXT_FIELDS) fields[name] = single(form, name);
  const parsed = parseInput(BiodataForm, fields);
  const { current_password } = parseInput(CurrentPassword, {
    current_password: single(form, "current_password"),
  });
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
  const photo = await readPhoto(single(form, "photo"));
  const { phone, email, ...details } = resolution.changes;
  const contactChanges = contactChangesOf(student, { phone, email });
  if (contactChanges) await assertMayChangeContacts(deps, student, current_password);

  const newKey = photo ? await deps.photos.save(photo, "jpg") : null;
  let saved;
  try {
    saved = await saveChanges(deps, student.id, details, newKey);
  } catch (error) {
    if (newKey) await deps.photos.remove(newKey);
    throw error;
  }
  // The update is saved: a file left behind is only clutter, not a reason to report failure.
  if (newKey && saved.oldKey) {
    await deps.photos.remove(saved.oldKey).catch((error: unknown) => {
      deps.logger.warn("old passport photo not removed", {
        key: saved.oldKey,
        error: String(error),
      });
    });
  }
  const contactChangeSent = contactChanges
    ? await requestContactChange(deps, saved.row, contactChanges)
    : null;
  return { row: saved.row, contactChangeSent };
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

// Locked is read again under a row lock: the registry may have locked the record since sign-in.
async function saveChanges(
  deps: BiodataDeps,
  id: number,
  changes: Omit<BiodataChanges, "phone" | "email">,
  photoKey: string | null,
) {
  return deps.db.transaction(async (tx) => {
    const [current] = await tx.select().from(students).where(eq(students.id, id)).for("update");
    if (!current) throw new ApiError(404, "Your student record no longer exists.");
    assertUnlocked(current);
    const [row] = await tx
      .update(students)
      .set({
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
