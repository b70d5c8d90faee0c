import { loadPageData } from "../api/page-data.server.ts";
import type { ServerApi } from "../api/server-api.server.ts";
import {
  CarryOverList,
  SessionList,
  StudentView,
} from "../../../common/courses/registered-course.ts";
import { markCarryOvers } from "../../../common/courses/carry-overs.ts";

/**
 * What /course-reg/history shows: the session names (oldest first, as the spec lists them) and,
 * when one was asked for, its registrations at every level, the carry-overs among them labelled
 * as the registration page and the slip label them (decision 180); null when not loaded.
 */
export function loadRegistrationHistory(api: Pick<ServerApi, "get">, asked: string | undefined) {
  return loadPageData("course registration history", async () => {
    const query = asked ? `?${new URLSearchParams({ session: asked })}` : "";
    const [sessions, view, carried] = await Promise.all([
      api.get("/setup/sessions/read", SessionList),
      asked ? api.get(`/courses/student-view${query}`, StudentView) : null,
      asked ? api.get(`/courses/carry-overs${query}`, CarryOverList) : null,
    ]);
    return {
      names: sessions.data.data.map((entry) => entry.name).sort(),
      view: view && {
        ...view,
        data: markCarryOvers(view.data, carried?.data.carry_overs ?? []),
      },
    };
  });
}
