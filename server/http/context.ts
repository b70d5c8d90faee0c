import type { Logger } from "./logger.ts";
import type { SignedInStudent } from "../auth/sessions.ts";
import type { SignedInStaff } from "../staff/staff-sessions.ts";

/** Hono's typing of what every route can read from the context. */
export type ApiEnv = {
  /** On Node, @hono/node-server hands over the request's socket; in-process calls have none. */
  Bindings: {
    incoming?: { socket?: { remoteAddress?: string } };
    /**
     * Set by a part of the same process that handed this request over by a function call and
     * writes the request's line itself (the proxy, or a page's read): this one goes out at debug.
     */
    loggedByCaller?: boolean;
  };
  Variables: {
    requestId: string;
    logger: Logger;
    /** Who sent the request, as far as the API may believe it (decision 122). */
    clientAddress: string;
    student: SignedInStudent;
    staff: SignedInStaff;
  };
};
