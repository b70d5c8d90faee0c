import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { entrySession } from "./accounts.ts";
import { chooseWithinCap, playVisit, type StudentAccount } from "./journey.ts";
import { StepRecorder } from "./stats.ts";
import { waitingPageHtml } from "./waiting-page.test-kit.ts";

describe("chooseWithinCap", () => {
  const course = (code: string, unit: number | string) => ({ code, unit });

  it("ticks courses in the order listed while they fit, skipping one that would pass the cap", () => {
    const offered = [
      course("EDU 111", 30),
      course("EDU 112", 40),
      course("EDU 113", 20),
      course("EDU 114", 10),
    ];
    expect(chooseWithinCap(offered).map((c) => c.code)).toEqual(["EDU 111", "EDU 112", "EDU 114"]);
  });

  it("reads units sent as text, as the API sends them", () => {
    expect(
      chooseWithinCap([course("A", "3"), course("B", "78"), course("C", "1")], 80).map(
        (c) => c.code,
      ),
    ).toEqual(["A", "C"]);
  });
});

describe("entrySession", () => {
  it.each([
    [100, "2024/2025"],
    [200, "2023/2024"],
    [300, "2022/2023"],
  ])("a student at %i level in 2024/2025 entered in %s", (level, expected) => {
    expect(entrySession("2024/2025", level)).toBe(expected);
  });
});

describe("playVisit", () => {
  it("records each student's arrival, time in line and whether they finished", async () => {
    let seen = 0;
    const server = createServer((_request, response) => {
      seen += 1;
      if (seen === 1) {
        response
          .writeHead(503, { "retry-after": "0", "set-cookie": "portal_line=t.1; Path=/" })
          .end(waitingPageHtml({ place: 3, waitSeconds: 12, refresh: "0" }));
        return;
      }
      response.writeHead(200, { "content-type": "text/html" }).end("<h1>Sign in</h1>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const recorder = new StepRecorder();
    const account: StudentAccount = {
      id: 42,
      phone: "08030000042",
      password: "load-test-password",
      othername: "Ada",
      level: 100,
      session: "2024/2025",
      paymentOption: "full",
    };
    const before = Date.now();
    try {
      const outcome = await playVisit(
        account,
        { origin, localAddress: "127.0.0.1", recorder, timeoutMs: 5_000, think: 0 },
        async ({ browser, at }) => {
          await browser.navigate("login page", at("/login"), { status: 200, marker: "Sign in" });
        },
      );
      expect(outcome.completed).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const [record] = recorder.studentRecords();
    expect(record).toMatchObject({
      studentId: 42,
      timesInLine: 1,
      admitted: true,
      finished: true,
      lost: null,
      line: { firstPageEstimateSeconds: 12, maxPlace: 3, pages: 1 },
    });
    expect(record!.arrivedAt).toBeGreaterThanOrEqual(before);
    expect(record!.line!.admittedAt).toBeGreaterThanOrEqual(record!.line!.firstPageAt);
  });
});
