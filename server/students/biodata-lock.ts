import type { students } from "../db/schema.ts";
import { ApiError } from "../http/errors.ts";
import { BIODATA_LOCKED } from "../../common/students/biodata.ts";

/** Refuses a change to a record the registry has locked. */
export function assertUnlocked(student: Pick<typeof students.$inferSelect, "biodataLocked">) {
  if (student.biodataLocked) throw new ApiError(403, BIODATA_LOCKED);
}
