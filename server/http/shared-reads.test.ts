import { describe, expect, it } from "vitest";
import { createSharedReads } from "./shared-reads.ts";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("createSharedReads", () => {
  it("answers students who ask together with one read, and keeps it for the window", async () => {
    const shared = createSharedReads({ ttlMs: 200 });
    let reads = 0;
    const load = async () => {
      reads += 1;
      await wait(10);
      return ["2024/2025"];
    };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => shared.read("sessions", load)),
    );
    expect(answers.every((answer) => answer[0] === "2024/2025")).toBe(true);
    expect(await shared.read("sessions", load)).toEqual(["2024/2025"]);
    expect(reads).toBe(1);
    await wait(250);
    await shared.read("sessions", load);
    expect(reads).toBe(2);
  });

  it("keeps each question apart", async () => {
    const shared = createSharedReads({ ttlMs: 1_000 });
    expect(await shared.read("mapped courses 1 100 any", async () => "first programme")).toBe(
      "first programme",
    );
    expect(await shared.read("mapped courses 2 100 any", async () => "second programme")).toBe(
      "second programme",
    );
  });

  it("does not keep a failed read: the next student asks the database again", async () => {
    const shared = createSharedReads({ ttlMs: 1_000 });
    await expect(
      shared.read("sessions", () => Promise.reject(new Error("connection lost"))),
    ).rejects.toThrow("connection lost");
    expect(await shared.read("sessions", async () => "answered")).toBe("answered");
  });

  it("forgets everything when told, and keeps nothing with a window of 0", async () => {
    const shared = createSharedReads({ ttlMs: 1_000 });
    await shared.read("sessions", async () => "before");
    shared.forgetAll();
    expect(await shared.read("sessions", async () => "after")).toBe("after");

    const never = createSharedReads({ ttlMs: 0 });
    await never.read("sessions", async () => "first");
    expect(await never.read("sessions", async () => "second")).toBe("second");
  });
});
