import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { courseRegistrations, registrationApprovals } from "../../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../../testing/api-harness.test-kit.ts";
import { insertCatalogue } from "../seed.ts";
import { advisingTestKit, SESSION } from "./advising.test-kit.ts";

let api: ApiHarness;
let kit: ReturnType<typeof advisingTestKit>;

beforeAll(async () => {
  api = await createApiHarness();
  await insertCatalogue(api.db);
  kit = advisingTestKit(api);
});
afterAll(() => api.close());

const firstSemester = (
  table: typeof courseRegistrations | typeof registrationApprovals,
  studentId: number,
) =>
  api.db
    .select()
    .from(table)
    .where(and(eq(table.studentId, studentId), eq(table.session, SESSION), eq(table.semester, 1)));

describe("an approval and the student's reset at the same moment", () => {
  it("end consistent: either approved with its courses kept, or reset with no approval", async () => {
    const { token: adviserToken } = await kit.adviser([100]);
    for (let round = 0; round < 8; round++) {
      const { student, token } = await kit.student();
      const reset = () =>
        kit.courses.reset(token, {
          registration_session: SESSION,
          semester: "first",
          student_id: student.id,
        });
      const approve = () => kit.approve(adviserToken, student.id, 1);
      // Alternate who sends first, so both orders get a chance on PostgreSQL.
      const [resetAnswer, approveAnswer] =
        round % 2 === 0
          ? await Promise.all([reset(), approve()])
          : (await Promise.all([approve(), reset()])).reverse();
      const statuses = `${resetAnswer!.status}/${approveAnswer!.status}`;
      const approvals = await firstSemester(registrationApprovals, student.id);
      const courses = await firstSemester(courseRegistrations, student.id);
      if (statuses === "403/200") {
        expect(approvals).toHaveLength(1);
        expect(courses).toHaveLength(2);
      } else {
        expect(statuses).toBe("200/409");
        expect(approvals).toHaveLength(0);
        expect(courses).toHaveLength(0);
      }
    }
  });
});
