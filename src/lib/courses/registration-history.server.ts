import { loadPageData } from "../api/page-data.server.ts";
import type { ServerApi } from "../api/server-api.server.ts";
import { PickerView, SessionList } from "../../../common/courses/registered-course.ts";
import { markCarryOvers } from "../../../common/courses/carry-overs.ts";

/**
 * What /course-reg/history shows: the session names (oldest first, as the spec lists them) and,
 * when one was asked for, its registrations at every level, the carry-overs among them labelled
 * as the registration page and the slip label them (decision 180); null when not loaded.
 */
export function loadRegistrationHistory(api: Pick<ServerApi, "get">, asked: string | undefined) {
  return loadPageData("course registration history", async () => {
    const query = asked ? `?${new URLSearchParams({ session: asked })}` : "";
    // The session's registrations and its carry-overs, one answer from one read (decision 204).
    const [sessions, picker] = await Promise.all([
      api.get("/setup/sessions/read", SessionList),
      asked ? api.get(`/courses/picker-view${query}`, PickerView) : null,
    ]);
    const view = picker?.data.view ?? null;
    return {
      names: sessions.data.data.map((entry) => entry.name).sort(),
      view: view && {
        ...view,
        data: markCarryOvers(view.data, picker?.data.carry_overs ?? []),
      },
    };
  });
}
