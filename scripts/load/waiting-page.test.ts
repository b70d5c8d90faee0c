import { describe, expect, it } from "vitest";
import { isWaitingPage, readWaitingPage } from "./waiting-page.ts";
import { waitingPageHtml } from "./waiting-page.test-kit.ts";

describe("readWaitingPage", () => {
  it("reads the place, the estimate, and where and when the page refreshes", () => {
    expect(
      readWaitingPage(
        waitingPageHtml({
          place: 42,
          waitSeconds: 95,
          refresh: "12; url=/login?next=%2Fdashboard",
        }),
      ),
    ).toEqual({
      place: 42,
      waitSeconds: 95,
      refreshSeconds: 12,
      refreshTo: "/login?next=%2Fdashboard",
    });
  });

  it("reads a page with no estimate yet, and a refresh written with entities and quotes", () => {
    expect(
      readWaitingPage(
        waitingPageHtml({ place: 1, waitSeconds: null, refresh: "5;URL='/login?a=1&#38;b=2'" }),
      ),
    ).toEqual({ place: 1, waitSeconds: null, refreshSeconds: 5, refreshTo: "/login?a=1&b=2" });
  });

  it("takes a refresh without a url as a reload of the same page", () => {
    expect(readWaitingPage(waitingPageHtml({ place: 3, waitSeconds: 10, refresh: "4" }))).toEqual({
      place: 3,
      waitSeconds: 10,
      refreshSeconds: 4,
      refreshTo: "",
    });
  });

  it.each([
    [waitingPageHtml({ place: "", waitSeconds: 10, refresh: "4" }), "waiting page without a place"],
    [waitingPageHtml({ place: 0, waitSeconds: 10, refresh: "4" }), "waiting page without a place"],
    [
      waitingPageHtml({ place: 3, waitSeconds: 10, refresh: "soon" }),
      "waiting page without a refresh",
    ],
    [
      '<main id="waiting-line" data-place="3"><meta http-equiv="refresh" content="4">',
      "waiting page without an estimate attribute",
    ],
    ["<main><h1>The portal is busy</h1></main>", "not a waiting page"],
  ])(
    "says what is wrong with a page a browser or a student could not follow (%#)",
    (body, problem) => {
      expect(readWaitingPage(body)).toEqual({ problem });
    },
  );

  it("tells the waiting page from the per-process busy page, which also refreshes itself", () => {
    expect(isWaitingPage(waitingPageHtml({ place: 3, waitSeconds: 10, refresh: "4" }))).toBe(true);
    expect(
      isWaitingPage(
        '<meta http-equiv="refresh" content="7"><title>The portal is busy</title><main style="x">busy</main>',
      ),
    ).toBe(false);
  });
});
