/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    student: import("../common/students/student-record.ts").StudentRecord;
    /** The id this request is logged under, shown on the error page (decision 125). */
    requestId: string;
    /** Rendered for the proxy in the same process, which writes the request's line (decision 112). */
    requestLoggedByCaller?: boolean;
    api: import("./lib/api/server-api.server.ts").ServerApi;
    /** A one-time message for this page ('Login successful'), from the flash cookie. */
    flash?: string;
    /** On staff pages: the signed-in staff member and the API with their token. */
    staff: import("../common/staff/staff.ts").StaffMe["data"];
    staffApi: import("./lib/api/server-api.server.ts").ServerApi;
  }
}
