import { z } from "zod";
import { RecordId } from "../../../common/validation/lists.ts";

const NO_SUCH_STUDENT = "There is no student with that id. Search for them again.";

/** Which record a /staff/students/:id… route works on. */
export const StudentIdParam = z.object({ id: RecordId(NO_SUCH_STUDENT) });

/** Who may work on student records: the registry (docs/decisions/082 says why not admin). */
export const STUDENT_RECORD_ROLES = ["registry"] as const;
