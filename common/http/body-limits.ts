/**
 * How many bytes of request body the portal reads, shared by the API (which enforces them) and
 * the proxy (which refuses larger bodies with 413 before relaying). One place, so the proxy
 * never relays a body the API would stop reading half-way.
 */

/** JSON bodies and page forms: far above any real form, far below anything that costs memory. */
export const JSON_BODY_LIMIT = 64 * 1024;

/** Largest passport photo accepted, in bytes (5 MiB), checked before any decoding. */
export const PASSPORT_MAX_BYTES = 5 * 1024 * 1024;

/** The biodata form: the photo's own limit plus room for the text fields and multipart boundaries. */
export const BIODATA_BODY_LIMIT = PASSPORT_MAX_BYTES + 64 * 1024;

/** The one API call that carries a file: `PATCH /student/biodata-update/:id` (path without /api). */
export function isBiodataUpload(method: string, apiPath: string) {
  return method === "PATCH" && apiPath.startsWith("/student/biodata-update/");
}

/**
 * The Update Biodata form posted to its page when JavaScript has not loaded (decision 093): the
 * page server forwards it, photo and all, to the API, so it gets the API call's limit.
 */
export function isBiodataPageForm(method: string, pathname: string) {
  return method === "POST" && /^\/biodata\/?$/.test(pathname);
}

/** A staff CSV import (2 MiB, a whole college's intake): the file plus the form around it. */
export const CSV_MAX_BYTES = 2 * 1024 * 1024;
export const CSV_IMPORT_BODY_LIMIT = CSV_MAX_BYTES + 64 * 1024;
export const CSV_TOO_LARGE = `The file is larger than ${CSV_MAX_BYTES / 1024 / 1024} MB. Split it into smaller files.`;

/** Staff imports are `POST /staff/<what>/import` (students, courses, mappings, …), path without /api. */
export function isCsvImport(method: string, apiPath: string) {
  return method === "POST" && /^\/staff\/[a-z-]+\/import$/.test(apiPath);
}

/**
 * A form posted to a staff page: the import pages forward a CSV file to the API, so they get the
 * import's limit. Only staff pages: students' forms keep the JSON limit.
 */
export function isStaffPageForm(method: string, pathname: string) {
  return method === "POST" && pathname.startsWith("/staff/");
}
