import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { courseOfferings, resultPublications, smsMessages } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";
import { createResultsKit } from "../results/results.test-kit.ts";
import { readSmsOutbox } from "./outbox.ts";
import { textResultsPublished } from "./results-news.ts";

// Publishing a programme's semester texts each of its students with results in it, once, unless
// they said no to results news or replied STOP (decision 201).

const ALL_ON = { registration_news: true, results_news: true, deadline_reminders: true };
let api: ApiHarness;
let people: Awaited<ReturnType<ApiHarness["createStudent"]>>[];
let exams: string;

beforeAll(async () => {
  api = await createApiHarness();
  const kit = await createResultsKit(api);
  // Four students with results, one registered but never approved (so with no results).
  const { course, students } = await kit.courseWithStudents({ approved: 4, waiting: 1 });
  people = students;
  // The head of department has approved the course's result: nothing waits.
  await api.db.insert(courseOfferings).values({
    courseId: course.id,
    session: "2024/2025",
    semester: 1,
    departmentId: kit.department.id,
    status: "approved",
  });
  exams = await staffSignIn(api, await createStaff(api, { roles: ["exams"], totp: true }));
});
afterAll(() => api.close());

const publish = () =>
  api.request("/staff/results/publish", {
    method: "POST",
    token: exams,
    json: {
      programme_id: api.school.programmes[0]!.id,
      session: "2024/2025",
      semester: 1,
      board_meeting_on: "2025-01-14",
      minute_reference: "AB/2025/01/3",
    },
  });
const international = (phone: string) => `+234${phone.slice(1)}`;

describe("results published by SMS", () => {
  it("texts each student with results once, but not one who said no or replied STOP", async () => {
    const [told, alsoTold, saidNo, stopped, noResults] = people;
    const token = await api.signIn(saidNo!.phone);
    const chosen = await api.request("/student/sms-preferences", {
      method: "PUT",
      token,
      json: { ...ALL_ON, results_news: false },
    });
    expect(chosen.status).toBe(200);
    // Without a callback secret the harness takes STOP replies from this machine.
    const stop = await api.request("/sms/opt-out", {
      method: "POST",
      clientAddress: "127.0.0.1",
      body: new URLSearchParams({ phoneNumber: international(stopped!.phone) }),
    });
    expect(stop.status).toBe(200);

    expect((await publish()).status).toBe(200);
    await api.deliverSms();
    const texts = await readSmsOutbox(api.smsOutboxDir);
    expect(texts.map((sms) => sms.to).sort()).toEqual(
      [told!, alsoTold!].map((person) => international(person.phone)).sort(),
    );
    for (const sms of texts)
      expect(sms.text).toBe(
        "Your results for First Semester 2024/2025 are published. Sign in to the Student Portal to see them.",
      );
    expect(texts.map((sms) => sms.to)).not.toContain(international(noResults!.phone));

    // Publishing again is refused, and the texts are queued once per student and publication.
    expect((await publish()).status).toBe(409);
    const [publication] = await api.db.select().from(resultPublications);
    expect(await api.db.transaction((tx) => textResultsPublished(tx, api.jobs, publication!))).toBe(
      0,
    );
    const rows = await api.db.select().from(smsMessages);
    expect(rows.map((row) => row.idempotencyKey).sort()).toEqual(
      [told!, alsoTold!].map((person) => `results:${publication!.id}:${person.id}`).sort(),
    );
    expect(rows.every((row) => row.kind === "results-published")).toBe(true);
  });
});
