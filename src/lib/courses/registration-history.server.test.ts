import { describe, expect, it } from "vitest";
import { loadRegistrationHistory } from "./registration-history.server.ts";

const course = (id: number, code: string) => ({
  id: id + 100,
  course_id: id,
  code,
  title: `${code} title`,
  unit: "3",
  semester: 1 as const,
  registration_level: 200,
});

describe("the course registration history", () => {
  it("labels the session's carry-overs among its registered courses, as registration and the slip do", async () => {
    const asked: string[] = [];
    const api = {
      get: (path: string) => {
        asked.push(path);
        if (path.startsWith("/setup"))
          return Promise.resolve({ data: { data: [{ name: "2024/2025" }] } });
        return Promise.resolve({
          data: {
            session: "2024/2025",
            view: {
              data: [course(7, "BIO 113"), course(8, "BIO 211")],
              approvals: [],
              returns: [],
            },
            carry_overs: [{ ...course(7, "BIO 113"), state: "registered", waiting_reason: null }],
          },
        });
      },
    };
    const history = await loadRegistrationHistory(api as never, "2024/2025");
    expect(history?.view?.data.map((each) => [each.code, each.carry_over])).toEqual([
      ["BIO 113", true],
      ["BIO 211", false],
    ]);
    // The carry-overs of the session asked for: those counted before it, not the current one's.
    expect(asked).toContain("/courses/picker-view?session=2024%2F2025");
  });

  it("asks for no registrations or carry-overs before a session is chosen", async () => {
    const asked: string[] = [];
    const api = {
      get: (path: string) => {
        asked.push(path);
        return Promise.resolve({ data: { data: [] } });
      },
    };
    expect(await loadRegistrationHistory(api as never, undefined)).toEqual({
      names: [],
      view: null,
    });
    expect(asked).toEqual(["/setup/sessions/read"]);
  });
});
