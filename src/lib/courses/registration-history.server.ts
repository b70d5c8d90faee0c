import { loadPageData } from "../api/page-data.server.ts";
import type { ServerApi } from "../api/server-api.server.ts";
import { SessionList, StudentView } from "../../../common/courses/registered-course.ts";

/**
 * What /course-reg/history shows: the session names (oldest first, as the spec lists them) and,
 * when one was asked for, its registrations at every level; null when not loaded.
 */
export function loadRegistrationHistory(api: Pick<ServerApi, "get">, asked: string | undefined) {
  return loadPageData("course registration history", async () => {
    const [sessions, view] = await Promise.all([
      api.get("/setup/sessions/read", SessionList),
      asked
        ? api.get(`/courses/student-view?${new URLSearchParams({ session: asked })}`, StudentView)
        : null,
    ]);
    return { names: sessions.data.data.map((entry) => entry.name).sort(), view };
  });
}
