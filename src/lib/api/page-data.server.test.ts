import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiRefusal, SessionEnded } from "./server-api.server.ts";
import { loadPaymentHistory } from "../payments/payment-history.server.ts";
import { loadRegistrationHistory } from "../courses/registration-history.server.ts";
import { pagesLog } from "../log/pages-log.server.ts";

// An API double whose every call fails the way the real client throws.
const failingApi = (error: Error) => ({ get: () => Promise.reject(error) });

describe("history pages when their API call fails", () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ["payment history", (api: ReturnType<typeof failingApi>) => loadPaymentHistory(api, 7)],
    [
      "course registration history",
      (api: ReturnType<typeof failingApi>) => loadRegistrationHistory(api, "2023/2024"),
    ],
  ])("%s: nothing to show, and the failure is logged", async (what, load) => {
    const log = vi.spyOn(pagesLog(), "error").mockImplementation(() => {});
    const failure = new ApiRefusal(500, "database down");
    await expect(load(failingApi(failure))).resolves.toBeNull();
    expect(log).toHaveBeenCalledWith(`${what} not loaded`, { error: failure });
  });

  it("an ended session still goes to sign-in", async () => {
    await expect(loadPaymentHistory(failingApi(new SessionEnded()), 7)).rejects.toBeInstanceOf(
      SessionEnded,
    );
  });

  it("loads the registrations of the session asked for, sessions oldest first", async () => {
    const asked: string[] = [];
    const api = {
      get: (path: string) => {
        asked.push(path);
        return Promise.resolve(
          path.startsWith("/setup")
            ? { data: { data: [{ name: "2024/2025" }, { name: "2019/2020" }] } }
            : {
                data: {
                  session: "2019/2020",
                  view: { data: [], approvals: [] },
                  carry_overs: [],
                },
              },
        );
      },
    };
    const history = await loadRegistrationHistory(api as never, "2019/2020");
    expect(asked).toContain("/courses/picker-view?session=2019%2F2020");
    expect(history).toEqual({
      names: ["2019/2020", "2024/2025"],
      view: { data: [], approvals: [] },
    });
  });
});
