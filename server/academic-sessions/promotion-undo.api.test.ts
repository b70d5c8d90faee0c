import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { academicSessions, auditLog, sessionPromotions, students } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { PromotionPreview, UndoPreview } from "../../common/academic-sessions/sessions.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";

let api: ApiHarness;
let token: string;
let registry: Awaited<ReturnType<typeof createStaff>>;
let sessionId: number;
let sequence = 0;
/** Two students the first run moves: 200 → 300 and 100 → 200. */
let movedIds: number[] = [];

beforeAll(async () => {
  api = await createApiHarness();
  registry = await createStaff(api, { roles: ["registry"] });
  token = await staffSignIn(api, registry);
  await asRegistry("/staff/sessions", { method: "POST", json: { name: "2025/2026" } });
  sessionId = (
    await api.db.select().from(academicSessions).where(eq(academicSessions.name, "2025/2026"))
  )[0]!.id;
  expect(
    (await asRegistry(`/staff/sessions/${sessionId}/current`, { method: "POST" })).status,
  ).toBe(200);
});
afterAll(() => api.close());

const asRegistry = (path: string, init: { method?: string; json?: unknown } = {}) =>
  api.request(path, { ...init, token });
const promotion = (suffix = "", json?: unknown) =>
  asRegistry(
    `/staff/sessions/${sessionId}/promotion${suffix}`,
    json === undefined && suffix.endsWith("undo") ? {} : { method: "POST", json: json ?? {} },
  );
const undo = () => asRegistry(`/staff/sessions/${sessionId}/promotion/undo`, { method: "POST" });

/** A student row with a matriculation number (NCE: final level 300). */
async function newStudent(level: number, stage = "student") {
  sequence += 1;
  return api.createStudent({
    phone: `080455${String(sequence).padStart(5, "0")}`,
    matricNo: `COE/2025/UND/${String(sequence).padStart(3, "0")}`,
    level,
    stage,
  });
}
const standing = async (ids: number[]) => {
  const rows = await api.db.select().from(students).where(inArray(students.id, ids));
  return ids.map((id) => rows.find((row) => row.id === id)!).map((row) => [row.level, row.stage]);
};
const everyone = async () =>
  (
    await api.db
      .select({ id: students.id, level: students.level, stage: students.stage })
      .from(students)
  ).sort((a, b) => a.id - b.id);

describe("holding students back", () => {
  it("refuses unknown matriculation numbers and students who are not studying, naming each, and moves nobody", async () => {
    const leaving = await newStudent(300, "graduating");
    const before = await everyone();
    const unknown = await promotion("", { hold: ["COE/NO/SUCH/1", " coe/no/such/2 "] });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).message).toBe(
      "No student has the matriculation numbers COE/NO/SUCH/1, coe/no/such/2. Correct the list and check again; nobody was held back or promoted.",
    );
    const graduating = await promotion("/check", { hold: [leaving.matricNo!] });
    expect(graduating.status).toBe(400);
    expect((await graduating.json()).message).toBe(
      `Only studying students move up, so only they can be held back: ${leaving.matricNo} (graduating). Take it off the list.`,
    );
    expect(await everyone()).toEqual(before);
    expect(
      await api.db
        .select()
        .from(sessionPromotions)
        .where(eq(sessionPromotions.sessionId, sessionId)),
    ).toEqual([]);
  });

  it("previews and runs the promotion without the held students, matched whatever their case", async () => {
    const [held, heldFinal, moved, finalYear, fresher] = [
      await newStudent(100),
      await newStudent(300),
      await newStudent(200),
      await newStudent(300),
      await newStudent(100),
    ];
    movedIds = [moved.id, fresher.id];
    const hold = [held.matricNo!.toLowerCase(), ` ${heldFinal.matricNo} `];
    const plain = PromotionPreview.parse(
      await (await asRegistry(`/staff/sessions/${sessionId}/promotion`)).json(),
    );
    const check = PromotionPreview.parse(await (await promotion("/check", { hold })).json());
    expect(check.held.map((student) => student.matric_no)).toEqual([
      held.matricNo,
      heldFinal.matricNo,
    ]);
    expect(check.promoted + check.graduating).toBe(plain.promoted + plain.graduating - 2);
    expect(check.students.map((student) => student.id)).not.toContain(held.id);

    const run = await promotion("", { hold });
    expect(run.status).toBe(200);
    const body = await run.json();
    expect(body.message).toBe(
      `Promotion for 2025/2026 done: ${check.promoted} students moved up a level, ${check.graduating} marked as graduating, 2 held back at their level.`,
    );
    expect(await standing([held.id, heldFinal.id, moved.id, finalYear.id])).toEqual([
      [100, "student"],
      [300, "student"],
      [300, "student"],
      [300, "graduating"],
    ]);
    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "session.promote"));
    expect(entry!.after).toMatchObject({ held: [held.matricNo, heldFinal.matricNo] });
  });
});

describe("undoing a promotion", () => {
  it("restores every level and stage exactly, lists students changed since and leaves them, and allows promoting again", async () => {
    const before = await everyone();
    const preview = PromotionPreview.parse(
      await (await asRegistry(`/staff/sessions/${sessionId}/promotion`)).json(),
    );
    expect(preview.run).toMatchObject({
      held: 2,
      undo_until: new Date(api.clock.now().getTime() + 7 * 86_400_000).toISOString(),
    });

    // After the promotion, the registry corrects one student by hand; another is withdrawn.
    const [corrected, withdrawn] = movedIds.map((id) => before.find((row) => row.id === id)!);
    await api.db.update(students).set({ level: 200 }).where(eq(students.id, corrected!.id));
    // (the fresher, now at 200, leaves)
    await api.db.update(students).set({ stage: "withdrawn" }).where(eq(students.id, withdrawn!.id));

    const check = UndoPreview.parse(
      await (await asRegistry(`/staff/sessions/${sessionId}/promotion/undo`)).json(),
    );
    expect(check.kept.map((student) => [student.id, student.promoted_to, student.now])).toEqual([
      [corrected!.id, "300 level", "200 level"],
      [withdrawn!.id, "200 level", "200 level, withdrawn"],
    ]);
    const undone = await undo();
    expect(undone.status).toBe(200);
    const answer = await undone.json();
    expect(answer.message).toMatch(
      new RegExp(
        `^Promotion for 2025/2026 undone: ${check.restored} ${check.restored === 1 ? "student is" : "students are"} back at the level they had before\\. 2 students were changed after the promotion and kept as they are: .+\\(COE/2025/UND/\\d+, now 200 level\\); .+ You can promote again\\.$`,
      ),
    );

    const after = await everyone();
    // Everyone else is where they were before the promotion; the two are as the registry left them.
    const restoredLevels = after.filter(
      (row) => row.id !== corrected!.id && row.id !== withdrawn!.id,
    );
    const levelsBeforePromotion = new Map(before.map((row) => [row.id, row]));
    for (const row of restoredLevels) {
      const promotedTo = levelsBeforePromotion.get(row.id)!;
      // Back one level, or no longer graduating, or untouched (held, or never studying).
      expect([promotedTo.level - 100, promotedTo.level]).toContain(row.level);
    }
    expect(after.find((row) => row.id === corrected!.id)).toMatchObject({
      level: 200,
      stage: "student",
    });
    expect(after.find((row) => row.id === withdrawn!.id)).toMatchObject({
      level: 200,
      stage: "withdrawn",
    });

    const again = await undo();
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe(
      "There is no promotion of 2025/2026 to undo: levels for it were not set by a promotion on the portal, or it was already undone.",
    );
    expect(await everyone()).toEqual(after);
    expect((await promotion("", {})).status).toBe(200);
  });

  it("restores exactly the levels a run changed: a round trip leaves every student as before", async () => {
    await undo();
    const before = await everyone();
    expect((await promotion("", {})).status).toBe(200);
    expect(await everyone()).not.toEqual(before);
    expect((await undo()).status).toBe(200);
    expect(await everyone()).toEqual(before);
  });

  it("two undos at the same moment undo once", async () => {
    expect((await promotion("", {})).status).toBe(200);
    const answers = await Promise.all([undo(), undo()]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(
      (await api.db.select().from(auditLog).where(eq(auditLog.action, "session.promotion_undo")))
        .length,
    ).toBe(4);
  });

  it("refuses after 7 days, and for a session that is not current", async () => {
    expect((await promotion("", {})).status).toBe(200);
    const before = await everyone();
    api.clock.advance(7 * 86_400_000 + 1000);
    token = await staffSignIn(api, registry);
    const late = await undo();
    expect(late.status).toBe(409);
    expect((await late.json()).message).toBe(
      "The promotion for 2025/2026 was more than 7 days ago and can no longer be undone; correct individual students' levels on their records.",
    );
    expect(await everyone()).toEqual(before);

    const old = (
      await api.db.select().from(academicSessions).where(eq(academicSessions.name, "2024/2025"))
    )[0]!.id;
    const notCurrent = await asRegistry(`/staff/sessions/${old}/promotion/undo`, {
      method: "POST",
    });
    expect(notCurrent.status).toBe(409);
    expect((await notCurrent.json()).message).toBe(
      "Only a promotion of the current session can be undone; 2024/2025 is not current.",
    );
  });
});
