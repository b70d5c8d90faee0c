import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { courseTestKit } from "./course.test-kit.ts";

let api: ApiHarness;
let kit: ReturnType<typeof courseTestKit>;
let courseIds: number[];

beforeAll(async () => {
  api = await createApiHarness();
  kit = courseTestKit(api);
  // 40 first-semester courses of 4 units: 20 requests of two courses each ask for 160 units.
  courseIds = (await kit.addOfferedCourses("TST", 40)).map((row) => row.id);
});
afterAll(() => api.close());

const unitsIn = async (token: string) => {
  const body = await (
    await api.request("/courses/student-view?session=2024/2025", { token })
  ).json();
  return body.data.reduce((sum: number, course: { unit: string }) => sum + Number(course.unit), 0);
};

describe("registration under concurrent requests", () => {
  it("keeps a session within 80 units when 20 requests, each valid alone, arrive together", async () => {
    await api.createStudent({ phone: "08039990001" });
    const token = await api.signIn("08039990001");
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        kit.register(token, {
          courses: [courseIds[2 * i], courseIds[2 * i + 1]],
          registration_level: 100,
          session: "2024/2025",
        }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 409)).toHaveLength(10);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect((await response.json()).error.message).toBe("Cannot exceed maximum of 80 units!");
    }
    expect(await unitsIn(token)).toBe(80);
  });

  it("registers a course once when 20 requests for it arrive together, without a server error", async () => {
    await api.createStudent({ phone: "08039990002" });
    const token = await api.signIn("08039990002");
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        kit.register(token, {
          courses: [courseIds[0]],
          registration_level: 100,
          session: "2024/2025",
        }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, ...Array.from({ length: 19 }, () => 409)]);
    expect(await unitsIn(token)).toBe(4);
  });
});
