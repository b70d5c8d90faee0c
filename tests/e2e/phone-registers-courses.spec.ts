import { expect, test, type Locator, type Page } from "@playwright/test";
import { freshStudent } from "./fresh-student.ts";
import { pdfPageTexts } from "./pdf-text.ts";
import {
  expectInViewport,
  expectNoSidewaysOverflow,
  expectTapTargets,
  expectWhollyShown,
} from "./phone/checks.ts";
import { PHONE_360 } from "./phone/phones.ts";
import { DEMO, signIn, signInWithoutJavaScript, waitForIslands } from "./support.ts";

// Issue 29 on a cheap Android phone: a 360 px screen, touch, JavaScript on and off. Each journey
// has a fresh 100-level NCE Biology/Chemistry student: 15 courses (43 units) in each semester.
test.use(PHONE_360);

const courseTable = (page: Page) => page.getByRole("table", { name: "Courses you can register" });
const selectedTable = (page: Page) => page.getByRole("table", { name: "Selected courses" });
const registeredTable = (page: Page) => page.getByRole("table", { name: "Registered courses" });
const unitCells = (table: Locator) =>
  table.locator("tbody td").filter({ hasText: /^(Units )?\d+$/ });

/** Every unit, the total and every remove button of a course table can be read and reached. */
async function expectUnitsAndControlsShown(table: Locator) {
  await expect(table).toBeVisible();
  for (const cell of await unitCells(table).all()) await expectWhollyShown(cell);
  await expectWhollyShown(table.getByRole("row", { name: /Total Units/ }).locator("td"));
  for (const button of await table.getByRole("button", { name: /^Remove / }).all())
    await expectWhollyShown(button);
}

/** Without JavaScript the table keeps its page (a form field) when the semester changes: go back to the first. */
async function toFirstPage(page: Page) {
  const previous = page.getByRole("button", { name: "Previous" });
  if (await previous.isEnabled()) await previous.tap();
  await expect(page.getByText(/^Page 1 of/)).toBeVisible();
}

async function tapEveryUntickedBox(page: Page) {
  for (const box of await courseTable(page).getByRole("checkbox").all())
    if (!(await box.isChecked())) await box.tap();
}

/** The row of the course whose box `alert` answers: the row just above it, as the student sees it. */
async function expectAlertRightUnder(alert: Locator, row: Locator) {
  const rowBox = (await row.boundingBox())!;
  const alertBox = (await alert.boundingBox())!;
  const gap = alertBox.y - (rowBox.y + rowBox.height);
  expect(gap).toBeGreaterThanOrEqual(-1);
  expect(gap).toBeLessThan(24);
}

test.describe("with JavaScript", () => {
  test("a student on a phone ticks courses by their titles, sees every unit, is refused at 80 units beside the course and sees the outcome on arrival", async ({
    page,
    browser,
  }) => {
    await signIn(page, await freshStudent(browser, 61), "/course-reg");
    await waitForIslands(page);
    await page.getByLabel("Semester", { exact: true }).selectOption({ label: "FIRST" });
    await expectNoSidewaysOverflow(page);
    await expectUnitsAndControlsShown(courseTable(page));

    // The course's title and code tick its box.
    await courseTable(page).getByText("General Biology I", { exact: true }).tap();
    await expect(page.getByRole("checkbox", { name: "Select BIO 111" })).toBeChecked();
    await courseTable(page).getByText("BIO 112", { exact: true }).tap();
    await expect(page.getByRole("checkbox", { name: "Select BIO 112" })).toBeChecked();
    await expectTapTargets(page);
    for (;;) {
      await tapEveryUntickedBox(page);
      const next = page.getByRole("button", { name: "Next" });
      if (await next.isDisabled()) break;
      await next.tap();
    }
    await expect(selectedTable(page).getByRole("row", { name: /Total Units/ })).toContainText("43");

    // The second semester's boxes, one by one, until the page refuses one: 80 units is the cap.
    await page.getByLabel("Semester", { exact: true }).selectOption({ label: "SECOND" });
    // The table starts the other semester at its first page, not the page the first was left at.
    await expect(page.getByText("Page 1 of 2")).toBeVisible();
    const refusal = page.getByRole("alert");
    let refused: Locator | null = null;
    for (let pages = 0; !refused && pages < 2; pages++) {
      for (const box of await courseTable(page).getByRole("checkbox").all()) {
        await box.tap();
        if ((await refusal.count()) > 0) {
          refused = box;
          break;
        }
      }
      if (!refused) await page.getByRole("button", { name: "Next" }).tap();
    }
    expect(refused, "a box past 80 units").not.toBeNull();
    await expect(refusal).toHaveText("Cannot exceed maximum of 80 units");
    await expect(refused!).not.toBeChecked();
    await expect(refused!).toBeInViewport();
    await expectInViewport(refusal);
    await expectAlertRightUnder(refusal, refused!.locator("xpath=ancestor::tr[1]"));
    await expectNoSidewaysOverflow(page);

    await expectUnitsAndControlsShown(selectedTable(page));
    await expect(selectedTable(page).getByRole("row", { name: /Total Units/ })).toContainText("80");
    await expectTapTargets(page);

    await page.getByRole("button", { name: "Register Courses" }).tap();
    await expect(page).toHaveURL(/registered=1$/);
    await waitForIslands(page);
    await expectInViewport(page.getByText("Your courses have been registered."));

    // Pending approval: no warning about approved courses; a reset for each semester that has courses.
    await page.getByRole("button", { name: "View Registered Courses" }).tap();
    await expectUnitsAndControlsShown(registeredTable(page));
    await expect(page.getByText(/You cannot delete courses/)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Reset First Semester" })).toBeVisible();
    await page.getByRole("button", { name: "Reset Second Semester" }).tap();
    await page
      .getByRole("dialog", { name: "Reset registration" })
      .getByRole("button", { name: "Yes, reset" })
      .tap();
    await expectInViewport(page.getByText("Reset successful"));
    await expect(registeredTable(page).locator("tbody tr")).toHaveCount(15);
    await expect(page.getByRole("button", { name: "Reset Second Semester" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Reset First Semester" })).toBeVisible();
    await expectNoSidewaysOverflow(page);
    await expectTapTargets(page);

    await page.goto("/course-reg/history?session=2024%2F2025");
    await expectNoSidewaysOverflow(page);
    await expectUnitsAndControlsShown(registeredTable(page));
  });

  test("an approved semester shows the warning and offers no reset", async ({ page }) => {
    // The returning student's 2023/2024 registration is approved in both semesters.
    await signIn(
      page,
      DEMO.returning,
      "/course-reg?level=100&session=2023%2F2024&keep_registered=1",
    );
    await waitForIslands(page);
    await expect(
      page.getByText(
        "You cannot delete courses after the Course Advisor have approved your course registration.",
      ),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: /^Reset/ })).toHaveCount(0);
    await expectUnitsAndControlsShown(registeredTable(page));
  });

  test("the slip of a 15-course semester prints its signature table with the last courses", async ({
    page,
    browser,
  }) => {
    await signIn(page, await freshStudent(browser, 63), "/course-reg");
    const answer = await page.evaluate(async () => {
      const offered = await (await fetch("/api/courses/mapped/read?mapped_level=100")).json();
      const first = (offered.data.data as { course_id: number; semester: number }[]).filter(
        (course) => course.semester === 1,
      );
      const response = await fetch("/api/courses/register", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          courses: first.map((course) => course.course_id),
          registration_level: 100,
          session: "2024/2025",
        }),
      });
      return { courses: first.length, status: response.status };
    });
    expect(answer).toEqual({ courses: 15, status: 201 });

    await page.goto("/course-reg/print?level=100&session=2024%2F2025");
    await expect(
      page.getByRole("table", { name: "First Semester Courses" }).locator("tbody tr"),
    ).toHaveCount(15);
    const pages = pdfPageTexts(await page.pdf({ format: "A4" }));
    const course = /\b(BIO|CHM|EDU|GSE) 11\d\b/;
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.at(-1)).toContain("Dean of Faculty");
    expect(pages.at(-1)).toMatch(course);
    expect(pages.at(-1)).toContain("Total Units");
    for (const text of pages) expect(text).toMatch(course);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a student on a phone without JavaScript ticks courses by their titles, opens at the 80-unit refusal beside the course and at each outcome", async ({
    page,
    browser,
  }) => {
    await signInWithoutJavaScript(page, await freshStudent(browser, 62), "/course-reg?semester=1");
    await expectNoSidewaysOverflow(page);
    await expectUnitsAndControlsShown(courseTable(page));
    await expectTapTargets(page);

    await courseTable(page).getByText("General Biology I", { exact: true }).tap();
    await expect(page.getByRole("checkbox", { name: "Select BIO 111" })).toBeChecked();
    await tapEveryUntickedBox(page);
    // Each answer opens at the part of the page just used: the pager, the search.
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(page.getByText("Page 2 of 2")).toBeInViewport();
    await tapEveryUntickedBox(page);
    await page.getByRole("button", { name: "Add ticked courses" }).tap();
    await expect(selectedTable(page).getByRole("row", { name: /Total Units/ })).toContainText("43");
    await page.getByLabel("Course code").fill("EDU 12");
    await page.getByRole("button", { name: "Search Courses" }).tap();
    await expect(page.getByRole("button", { name: /^EDU 121 / })).toBeInViewport();
    await expectUnitsAndControlsShown(selectedTable(page));
    await expectTapTargets(page);

    // Second semester: every box ticked, page by page. Page 1 (BIO, CHM, EDU 121–122) brings the
    // selection to 75 units; on page 2 EDU 123 and 124 reach 80 and GSE 121 is the first refused.
    await page.getByLabel("Semester", { exact: true }).selectOption({ label: "SECOND" });
    await page.getByRole("button", { name: "Show Courses" }).tap();
    await expect(courseTable(page)).toContainText("SECOND");
    await toFirstPage(page);
    await tapEveryUntickedBox(page);
    await page.getByRole("button", { name: "Next" }).tap();
    await expect(page.getByText("Page 2 of 2")).toBeVisible();
    await expect(selectedTable(page).getByRole("row", { name: /Total Units/ })).toContainText("75");
    await tapEveryUntickedBox(page);
    await page.getByRole("button", { name: "Add ticked courses" }).tap();
    const refusal = page.getByRole("alert");
    // The answer opens at the refusal, right under the course refused, whose box is not ticked.
    await expect(refusal).toHaveText("Cannot exceed maximum of 80 units");
    await expectInViewport(refusal);
    const refusedRow = courseTable(page).locator("tr:has(+ tr [role=alert])");
    await expect(refusedRow.getByRole("checkbox")).toHaveAccessibleName("Select GSE 121");
    await expect(refusedRow.getByRole("checkbox")).not.toBeChecked();
    await expect(refusedRow).toBeInViewport();
    await expectAlertRightUnder(refusal, refusedRow);
    await expect(selectedTable(page).getByRole("row", { name: /Total Units/ })).toContainText("80");
    await expectNoSidewaysOverflow(page);

    await page.getByRole("button", { name: "Register Courses" }).tap();
    await expect(page).toHaveURL(/registered=1#answer$/);
    await expectInViewport(page.getByText("Your courses have been registered."));

    await page.getByRole("button", { name: "View Registered Courses" }).tap();
    await expectUnitsAndControlsShown(registeredTable(page));
    await expect(page.getByText(/You cannot delete courses/)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Reset First Semester" })).toBeVisible();
    await expectTapTargets(page);
    await page.getByRole("button", { name: "Reset Second Semester" }).tap();
    await page.getByRole("button", { name: "Yes, reset" }).tap();
    await expectInViewport(page.getByRole("status").filter({ hasText: "Reset successful" }));
    await expect(page.getByRole("button", { name: "Reset Second Semester" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Reset First Semester" })).toBeVisible();
    await expectNoSidewaysOverflow(page);
  });
});
