import { NOTICE_ID, type Notice } from "../../lib/courses/picker-notices.ts";

/**
 * The picker's one message. Errors are alerts, announced as they appear; the rest are statuses.
 * The id lets a page the server answered open at it (the form submits to `#answer`); a refused
 * course's row takes the id instead (`anchored={false}`), so the page opens with the course on
 * top and its refusal under it.
 */
export function NoticeLine({ notice, anchored = true }: { notice: Notice; anchored?: boolean }) {
  return (
    <p
      id={anchored ? NOTICE_ID : undefined}
      data-notice
      role={notice.tone === "error" ? "alert" : "status"}
      className={`alert alert-${notice.tone}`}
    >
      {notice.text}
    </p>
  );
}
