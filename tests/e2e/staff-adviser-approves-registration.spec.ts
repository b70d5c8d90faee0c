import { gzipSync } from "node:zlib";
import { expect, test, type Page } from "@playwright/test";
import { DEMO, signIn, waitForIslands } from "./support.ts";

// Runs after register-courses.spec.ts (files run in name order): the approval it makes is final,
// so the returning student's 2024/2025 first semester stays registered from here on. Her
// carry-over BIO 113 (3 units, failed in her published 2023/2024 first semester) is registered
// with whatever she picks (decision 180).
const ADVISER = {
  email: "adviser@college.example",
  password: "demo1234",
  name: "Dr. Musa Abdullahi",
};

async function staffSignIn(page: Page) {
  await page.goto("/staff/login");
  await page.getByLabel("E-mail address").fill(ADVISER.email);
  await page.getByLabel("Password").fill(ADVISER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
}

async function registerFirstSemester(page: Page, codes: string[]) {
  await page.goto("/course-reg");
  await waitForIslands(page);
  await page.getByLabel("Semester", { exact: true }).selectOption({ label: "FIRST" });
  for (const code of codes) {
    await page.getByLabel("Search courses", { exact: true }).fill(code);
    await page.getByRole("checkbox", { name: `Select ${code}` }).check();
  }
  await page.getByRole("button", { name: "Register Courses" }).click();
  await expect(page).toHaveURL(/registered=1$/);
  await waitForIslands(page);
}

async function advisorLine(page: Page) {
  await page.goto("/course-reg");
  await waitForIslands(page);
  await page.getByRole("button", { name: "View Registered Courses" }).click();
  return page.getByRole("list", { name: "Course Advisor" });
}

test("the course adviser returns a 200-level student's first semester with a note, then approves it; the student can no longer reset it", async ({
  page,
  browser,
}) => {
  await signIn(page, DEMO.returning, "/course-reg");
  await registerFirstSemester(page, ["BIO 211", "BIO 212"]);

  // The adviser works on plain server-rendered forms: no JavaScript at all.
  const staffContext = await browser.newContext({ javaScriptEnabled: false });
  const adviser = await staffContext.newPage();
  await staffSignIn(adviser);
  await adviser
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Course registrations" })
    .click();
  await adviser.getByLabel("Status").selectOption({ label: "Pending" });
  await adviser.getByRole("button", { name: "Filter" }).click();
  const row = adviser.getByRole("row", { name: /Okonkwo Chiamaka Grace/ });
  await expect(row).toContainText("Pending");
  await expect(row.getByRole("cell").nth(5)).toHaveText("10");
  await row.getByRole("link", { name: "Okonkwo Chiamaka Grace" }).click();
  await expect(adviser.getByRole("heading", { name: "First Semester: Pending" })).toBeVisible();
  const firstSemester = adviser.getByRole("table", { name: "First Semester courses" });
  await expect(firstSemester.getByRole("row", { name: /Total Units/ })).toContainText("10");
  // Which course is a carry-over, and where her published results leave her.
  await expect(firstSemester.getByRole("row", { name: /BIO 113/ })).toContainText("Carry-over");
  await expect(firstSemester.getByRole("row", { name: /BIO 211/ })).not.toContainText("Carry-over");
  // Her latest published semester: the first, or the second once the exams office journey of
  // this lane has published it.
  await expect(adviser.getByTestId("standing")).toContainText(
    /Academic standing after 2023\/2024, (First|Second) Semester: Good standing/,
  );
  await expect(adviser.getByTestId("carry-overs")).toHaveText(
    "Carry-overs for 2024/2025: BIO 113. All registered.",
  );

  await adviser
    .getByLabel("Note to the student")
    .first()
    .fill("Add BIO 213: it is compulsory at 200 level.");
  await adviser.getByRole("button", { name: "Return First Semester with note" }).click();
  await expect(adviser.getByRole("status")).toHaveText(
    "First Semester registration for 2024/2025 returned to Okonkwo Chiamaka Grace with your note.",
  );
  await expect(adviser.getByRole("heading", { name: "First Semester: Returned" })).toBeVisible();

  await expect(await advisorLine(page)).toContainText(
    `First Semester: Returned by ${ADVISER.name}`,
  );
  await expect(page.getByRole("list", { name: "Course Advisor" })).toContainText(
    "Add BIO 213: it is compulsory at 200 level.",
  );
  await registerFirstSemester(page, ["BIO 213"]);

  // The adviser's page still shows the semester without BIO 213: the confirmation names the three
  // courses the adviser saw, approving them is refused, and the page shows what the semester holds now.
  await adviser.getByRole("button", { name: "Approve First Semester…", exact: true }).click();
  const confirmation = adviser.getByRole("region", {
    name: "Approve First Semester for 2024/2025?",
  });
  await expect(confirmation).toContainText("3 courses, 10 units (BIO 113, BIO 211, BIO 212)");
  await confirmation.getByRole("button", { name: "Yes, approve First Semester" }).click();
  await expect(adviser.getByRole("alert")).toHaveText(
    "This student changed the semester after you opened it; review it again.",
  );
  await expect(adviser.getByRole("heading", { name: "First Semester: Pending" })).toBeVisible();
  await expect(adviser.getByRole("table", { name: "First Semester courses" })).toContainText(
    "BIO 213",
  );
  await adviser.getByRole("button", { name: "Approve First Semester…", exact: true }).click();
  await adviser.getByRole("button", { name: "Yes, approve First Semester" }).click();
  await expect(adviser.getByRole("status")).toHaveText(
    "First Semester registration for 2024/2025 approved: Okonkwo Chiamaka Grace can no longer change it.",
  );
  await expect(adviser.getByText(`Approved by ${ADVISER.name} on`)).toBeVisible();
  await expect(adviser.getByRole("button", { name: /^Approve First/ })).toHaveCount(0);

  // The student: the adviser's name on the Course Advisor line, no reset, and the server refuses one.
  await expect(await advisorLine(page)).toContainText(
    `First Semester: Approved by ${ADVISER.name} on`,
  );
  await expect(page.getByRole("button", { name: "Reset First Semester" })).toHaveCount(0);
  const refusal = await page.evaluate(async () => {
    const me = JSON.parse(sessionStorage.getItem("user-info") ?? "{}") as { id: number };
    const response = await fetch("/api/courses/reset/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        registration_session: "2024/2025",
        semester: "first",
        student_id: me.id,
      }),
    });
    return response.status;
  });
  expect(refusal).toBe(403);
  await page.goto("/course-reg/history?session=2024%2F2025");
  await expect(page.getByRole("list", { name: "Course Advisor" })).toContainText(
    `Approved by ${ADVISER.name}`,
  );
  await page.goto("/course-reg/print?level=200&session=2024%2F2025");
  await expect(page.getByRole("region", { name: "First Semester Courses" })).toContainText(
    `Course Advisor — Approved by ${ADVISER.name} on`,
  );

  // DESIGN budget: a staff page's HTML with its inlined CSS stays within 30 KiB gzip.
  for (const path of [
    "/staff/registrations",
    new URL(adviser.url()).pathname + "?session=2024%2F2025",
  ]) {
    const html = await (await adviser.request.get(path)).body();
    expect(gzipSync(html).length, path).toBeLessThanOrEqual(30 * 1024);
  }
  await staffContext.close();
});
