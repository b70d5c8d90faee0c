import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import {
  BIODATA_BODY_LIMIT,
  CSV_IMPORT_BODY_LIMIT,
  CSV_TOO_LARGE,
  isBiodataPageForm,
  isBiodataUpload,
  isCsvImport,
  isStaffPageForm,
  JSON_BODY_LIMIT,
  PASSPORT_MAX_BYTES,
} from "../common/http/body-limits.ts";
import { refuse } from "./refusal.ts";

const TOO_LARGE = "That request is too large. Shorten what you typed and try again.";
const PHOTO_TOO_LARGE = `The photo is larger than ${PASSPORT_MAX_BYTES / 1024 / 1024} MB. Choose a smaller photo.`;

/**
 * Refuses request bodies over the API's own limits with 413 before anything is relayed: the API
 * stops reading at its limit, and a relay cut off half-way reaches the student as a 502. The
 * declared Content-Length is checked first; a chunked body is counted while it is read (and
 * then held, at most the limit, so the upstream gets all of it or nothing).
 * Page forms and the sign-in form get the JSON limit too: nothing a student types comes near it;
 * the one page form that carries a file, Update Biodata, gets the photo's.
 */
export function refuseOversizedBodies(): MiddlewareHandler {
  const forJson = bodyLimit({
    maxSize: JSON_BODY_LIMIT,
    onError: (c) => refuse(c, 413, TOO_LARGE),
  });
  const forBiodata = bodyLimit({
    maxSize: BIODATA_BODY_LIMIT,
    onError: (c) => refuse(c, 413, PHOTO_TOO_LARGE, { photo: PHOTO_TOO_LARGE }),
  });
  const forCsv = bodyLimit({
    maxSize: CSV_IMPORT_BODY_LIMIT,
    onError: (c) => refuse(c, 413, CSV_TOO_LARGE, { file: CSV_TOO_LARGE }),
  });
  return (c, next) => {
    const { method } = c.req;
    // Most requests are GETs, which carry no body: asking Hono's bodyLimit would have the Node
    // adapter build a full Request just to find that out.
    if (method === "GET" || method === "HEAD") return next();
    const { pathname } = new URL(c.req.url);
    const apiPath = pathname.startsWith("/api/") ? pathname.slice("/api".length) : null;
    if (apiPath !== null ? isBiodataUpload(method, apiPath) : isBiodataPageForm(method, pathname))
      return forBiodata(c, next);
    const csv = apiPath !== null ? isCsvImport(method, apiPath) : isStaffPageForm(method, pathname);
    return (csv ? forCsv : forJson)(c, next);
  };
}
