import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { signInWithAuthenticator, staffSignIn } from "./staff-sign-in.ts";
import { DEMO, SANDBOX_ORIGIN, signIn, waitForIslands } from "./support.ts";

// The demo's returning student, Chiamaka, had her 2023/2024 second semester registered and
// approved by the seed, but no result for it: the lecturer's part is set up here through the API
// (every course assigned to the demo lecturer in Biology, scores saved and submitted), and the
// head of department, the exams office and the student take it from there on the pages.
const SESSION = "2023/2024";
const MATRIC = "CCE/2023/BIO/0042";
const PROGRAMME = "NCE Biology/Chemistry";
const BOARD = { date: "2024-07-18", minute: "AB/2024/07/12" };

type Api = APIRequestContext;

async function data<T>(api: Api, path: string, init?: { method: "POST" | "PUT"; json?: unknown }) {
  const response = init
    ? await api.fetch(`/api${path}`, { method: init.method, data: init.json ?? {} })
    : await api.get(`/api${path}`);
  expect(response.status(), `${init?.method ?? "GET"} ${path}: ${await response.text()}`).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

async function signedInStaff(page: Page, email: string) {
  await staffSignIn(page, email);
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
}

/** Registry and lecturer through the API: one offering per course of her semester, each submitted. */
async function submitHerSecondSemester(registry: Api, lecturer: Api) {
  const [student] = await data<{ id: number; matric_no: string }[]>(
    registry,
    `/staff/students?q=${encodeURIComponent(MATRIC)}`,
  );
  const registration = await data<{
    semesters: { semester: number; courses: { code: string }[] }[];
  }>(registry, `/staff/registrations/${student!.id}?session=${encodeURIComponent(SESSION)}`);
  const codes = registration.semesters
    .find((each) => each.semester === 2)!
    .courses.map((c) => c.code);
  expect(codes.length).toBeGreaterThan(2);
  const catalogue = (await (await registry.get("/api/staff/courses?page_size=1000")).json()) as {
    data: { id: number; code: string }[];
  };
  const departments = (await (await registry.get("/api/staff/departments")).json()) as {
    data: { id: number; name: string }[];
  };
  const biology = departments.data.find((department) => department.name === "Biology")!;
  const me = (await (await lecturer.get("/api/staff/me")).json()) as { data: { id: number } };
  const offerings: { code: string; id: number }[] = [];
  for (const [index, code] of codes.entries()) {
    const course = catalogue.data.find((each) => each.code === code)!;
    const { id } = await data<{ id: number }>(registry, "/staff/results/offerings", {
      method: "POST",
      json: {
        course_id: course.id,
        session: SESSION,
        semester: 2,
        department_id: biology.id,
        lecturer_ids: [me.data.id],
      },
    });
    // Passes only (C to A): the published semester adds no carry-over to her next registration.
    await data(lecturer, `/staff/results/offerings/${id}/scores`, {
      method: "PUT",
      json: { scores: [{ student_id: student!.id, ca: 24 + index, exam: 30 + index * 2 }] },
    });
    await data(lecturer, `/staff/results/offerings/${id}/submit`, { method: "POST" });
    offerings.push({ code, id });
  }
  return { studentId: student!.id, offerings };
}

test("the head of department returns one course and approves another; the exams office publishes the semester on the board's approval; the student reads it", async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const registryPage = await (await browser.newContext()).newPage();
  await signedInStaff(registryPage, "registry@college.example");
  const lecturerPage = await (await browser.newContext()).newPage();
  await signedInStaff(lecturerPage, "lecturer@college.example");
  const { studentId, offerings } = await submitHerSecondSemester(
    registryPage.request,
    lecturerPage.request,
  );
  const [returned, approved, ...rest] = offerings;

  // The head of department works without JavaScript: plain forms posted back to the page.
  const hodContext = await browser.newContext({ javaScriptEnabled: false });
  const hod = await hodContext.newPage();
  await signedInStaff(hod, "hod@college.example");
  await hod
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Results to review" })
    .click();
  const waiting = hod.getByRole("table", { name: "Results waiting for you" });
  for (const offering of offerings) await expect(waiting).toContainText(offering.code);

  await waiting.getByRole("link", { name: returned!.code, exact: true }).click();
  await expect(hod.getByRole("heading", { level: 1 })).toContainText(returned!.code);
  await expect(hod.getByRole("table", { name: "Students per grade" })).toBeVisible();
  await expect(
    hod.getByRole("table", { name: "Mean total, this session and the last three" }),
  ).toContainText(`${SESSION} (this result)`);
  await expect(hod.getByTestId("mean")).toHaveText("54.0"); // CA 24 + exam 30
  await expect(hod.getByRole("row", { name: /Okonkwo Chiamaka Grace/ })).toContainText(MATRIC);
  await hod
    .getByLabel("Note to the lecturers")
    .fill("Check the exam mark against the script: the moderator's total differs.");
  await hod.getByRole("button", { name: "Return to the lecturers with this note" }).click();
  await expect(
    hod.getByRole("heading", { name: `${returned!.code} returned to its lecturers` }),
  ).toBeVisible();
  await expect(hod.getByRole("status")).toContainText("the moderator's total differs");

  await hod.goto(`/staff/results/review/${approved!.id}`);
  await hod.getByRole("button", { name: `Approve ${approved!.code}…` }).click();
  const confirmation = hod.getByRole("region", {
    name: `Approve ${approved!.code} for ${SESSION}?`,
  });
  await expect(confirmation).toContainText("1 student, mean total 57");
  await confirmation.getByRole("button", { name: `Yes, approve ${approved!.code}` }).click();
  await expect(hod.getByRole("status")).toHaveText("Result approved");
  await expect(hod.getByText("Approved by the head of department")).toBeVisible();
  await expect(hod.getByRole("button", { name: /^Approve/ })).toHaveCount(0);
  // The rest are approved as the head would, one by one, through the API.
  for (const offering of rest)
    await data(hod.request, `/staff/results/review/${offering.id}/approve`, { method: "POST" });

  // The lecturer sees the note (the score sheet page is another's to test; its API here).
  const sheet = await data<{ offering: { status: string; return_note: string } }>(
    lecturerPage.request,
    `/staff/results/offerings/${returned!.id}`,
  );
  expect(sheet.offering).toMatchObject({
    status: "open",
    return_note: expect.stringContaining("moderator"),
  });

  // The exams office: the overview, the computed semester, and a refused publication.
  const exams = page;
  await signInWithAuthenticator(exams, "exams@college.example");
  await exams
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Results overview" })
    .click();
  await exams.getByLabel("Session").selectOption(SESSION);
  await exams.getByLabel("Semester", { exact: true }).selectOption({ label: "Second Semester" });
  await exams.getByRole("button", { name: "Show" }).click();
  const biology = exams
    .getByRole("table", { name: `Departments, ${SESSION}, Second Semester` })
    .getByRole("row", { name: /^Biology/ });
  await expect(biology).toContainText(`${returned!.code}`);
  await expect(biology.getByRole("cell").nth(0)).toHaveText("1"); // being entered: the returned one
  await expect(biology.getByRole("cell").nth(2)).toHaveText(String(offerings.length - 1));

  await exams
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Semester results" })
    .click();
  await exams.getByLabel("Programme").selectOption({ label: PROGRAMME });
  await exams.getByLabel("Session").selectOption(SESSION);
  await exams.getByLabel("Semester", { exact: true }).selectOption({ label: "Second Semester" });
  await exams.getByRole("button", { name: "Show" }).click();
  await expect(exams.getByTestId("waiting")).toContainText(`${returned!.code}: being entered`);
  const her = exams.getByRole("row", { name: /Okonkwo Chiamaka Grace/ });
  await expect(her).toContainText(MATRIC);
  await expect(her).toContainText("Good standing");

  const publish = async () => {
    await exams.getByLabel("Date of the board's meeting").fill(BOARD.date);
    await exams.getByLabel("Minute reference").fill(BOARD.minute);
    await exams
      .getByRole("button", { name: `Publish ${PROGRAMME} ${SESSION} Second Semester…` })
      .click();
    const asked = exams.getByRole("region", {
      name: `Publish ${PROGRAMME}, ${SESSION} Second Semester?`,
    });
    await expect(asked).toContainText(BOARD.minute);
    await asked
      .getByRole("button", { name: `Yes, publish ${PROGRAMME} ${SESSION} Second Semester` })
      .click();
  };
  await publish();
  await expect(exams.getByRole("alert")).toHaveText(
    `1 course is not approved yet: ${returned!.code} (open). Publish when every course is approved.`,
  );

  // The lecturer corrects and submits again; the head approves; now the board's approval publishes it.
  await data(lecturerPage.request, `/staff/results/offerings/${returned!.id}/scores`, {
    method: "PUT",
    json: { scores: [{ student_id: studentId, ca: 24, exam: 36 }] },
  });
  await data(lecturerPage.request, `/staff/results/offerings/${returned!.id}/submit`, {
    method: "POST",
  });
  await data(hod.request, `/staff/results/review/${returned!.id}/approve`, { method: "POST" });

  await exams.goto(exams.url()); // the page as it was chosen, not the refused post again
  await expect(exams.getByText("Every course is approved")).toBeVisible();
  const printable = exams.getByRole("link", { name: "Printable copy for the academic board (A4)" });
  const printed = await exams.context().newPage();
  await printed.goto((await printable.getAttribute("href"))!);
  await expect(printed.getByRole("heading", { name: PROGRAMME })).toBeVisible();
  await expect(printed.getByRole("row", { name: /Okonkwo Chiamaka Grace/ })).toContainText(
    /\d\.\d\d/,
  );
  await printed.close();
  await publish();
  await expect(exams.getByRole("status")).toHaveText("Results published");
  await expect(exams.getByTestId("publication")).toContainText(
    `board's approval of ${BOARD.date}, minute ${BOARD.minute}`,
  );

  // Published: now a score changes only by an amendment. The lecturer proposes one on the course's
  // score sheet, the head endorses it, the exams office applies it.
  const reason = "Script re-marked: question 4 was not added to the exam total.";
  await lecturerPage.goto(`/staff/teaching/${approved!.id}`);
  await lecturerPage.getByLabel("Student").selectOption(String(studentId));
  await lecturerPage.getByLabel("New CA").fill("25");
  await lecturerPage.getByLabel("New exam").fill("38");
  await lecturerPage.getByLabel("Reason").fill(reason);
  await lecturerPage.getByRole("button", { name: "Propose the amendment" }).click();
  await expect(lecturerPage.getByRole("status")).toHaveText(
    "Amendment sent to the head of department",
  );
  await expect(
    lecturerPage.getByRole("table", { name: `Your amendments of ${approved!.code}` }),
  ).toContainText("Waiting for the head of department");
  const label = `${approved!.code} ${MATRIC}`;
  await hod.goto("/staff/results/amendments");
  const proposal = hod.getByRole("article", { name: new RegExp(approved!.code) });
  await expect(proposal).toContainText("25 / 32 → 25 / 38");
  await expect(proposal).toContainText(reason);
  await expect(proposal).toContainText("Waiting for the head of department");
  await hod.getByRole("button", { name: `Endorse amendment of ${label}` }).click();
  await expect(hod.getByRole("status")).toHaveText(
    "Amendment endorsed: it goes to the exams office",
  );
  await expect(hod.getByRole("table", { name: "Proposed or decided by you" })).toContainText(
    "Endorsed: waiting for the exams office",
  );
  await hodContext.close();

  await exams.goto("/staff/results/amendments");
  const endorsed = exams.getByRole("article", { name: new RegExp(approved!.code) });
  await expect(endorsed).toContainText("Prof. Halima Sani"); // who endorsed it
  await exams.getByRole("button", { name: `Apply amendment of ${label}` }).click();
  await expect(exams.getByRole("status")).toHaveText(
    "Amendment applied: the student's GPA and CGPA are recomputed",
  );
  await expect(exams.getByRole("table", { name: "Proposed or decided by you" })).toContainText(
    "Applied by",
  );

  // The student: published, but her second installment of 2023/2024 is unpaid, so it waits for it.
  const student = await (await browser.newContext()).newPage();
  await signIn(student, DEMO.returning, "/");
  await student.goto("/results");
  await expect(student.getByTestId("results-withheld")).toContainText(
    `Your ${SESSION} results for the second semester show once your second installment is paid.`,
  );
  // She pays it by bank transfer (the sandbox plays her bank), and the semester shows.
  await student.goto("/payment");
  await waitForIslands(student);
  await student.getByLabel("Payment category").selectOption("second_installment");
  await student.getByLabel("Level").selectOption("100");
  await student.getByLabel("Session").selectOption(SESSION);
  await expect(student.getByTestId("fee-amount")).toHaveText(/^₦/);
  await student.getByRole("button", { name: "Pay by bank transfer" }).click();
  await expect(student).toHaveURL(/\/payment\?reference=CCE-/);
  const reference = new URL(student.url()).searchParams.get("reference")!;
  await student.goto(`${SANDBOX_ORIGIN}/simulate/${reference}`);
  await student.getByRole("button", { name: "The transfer arrives" }).click();
  await expect(student.getByRole("status")).toContainText(
    "The signed charge.success webhook was delivered to the portal.",
  );
  await student.goto("/results");
  const semester = student.getByRole("region", { name: `${SESSION} — Second Semester` });
  await expect(semester).toBeVisible();
  await expect(semester.getByRole("row", { name: new RegExp(`^${returned!.code}`) })).toContainText(
    "60",
  );
  await expect(semester.getByTestId("gpa")).toHaveText(/^\d\.\d\d$/);
  const amended = semester.getByRole("row", { name: new RegExp(`^${approved!.code}`) });
  await expect(amended).toContainText("63");
  await expect(amended).toContainText(`25 / 32 → 25 / 38 (${reason})`);
});
