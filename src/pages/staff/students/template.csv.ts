import type { APIRoute } from "astro";
import { STUDENT_IMPORT_COLUMNS } from "../../../../common/students/registry.ts";

/** An empty import file: the exact first line, so a spreadsheet starts from the right columns. */
export const GET: APIRoute = () =>
  new Response(`${STUDENT_IMPORT_COLUMNS.join(",")}\r\n`, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="students-import.csv"',
    },
  });
