import { NOTICE_ID, type Notice } from "../../lib/courses/picker-notices.ts";

/**
 * The picker's one message. Errors are alerts, announced as they appear; the rest are statuses.
 * The id lets a page the server answered open at it (the form submits to `#answer`).
 */
export function NoticeLine({ notice }: { notice: Notice }) {
  return (
    <p id={NOTICE_ID} role={notice.tone === "error" ? "alert" : "status"} className={`alert alert-${notice.tone}`}>
      {notice.text}
    </p>
  );
}
