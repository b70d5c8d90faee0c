import type { Logger } from "./logger.ts";
import type { SignedInStudent } from "../auth/sessions.ts";
import type { SignedInStaff } from "../staff/staff-sessions.ts";

/** Hono's typing of what every route can read from the context. */
export type ApiEnv = {
  Variables: {
    requestId: string;
    logger: Logger;
    student: SignedInStudent;
    staff: SignedInStaff;
  };
};
