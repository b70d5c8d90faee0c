import { expect, test, type Page } from "@playwright/test";
import { signIn, waitForIslands } from "./support.ts";

const LOCKED_STUDENT = { phone: "08030000003", password: "demo1234" }; // NCE Biology/Chemistry, 300 level

async function registrySignIn(page: Page) {
  await page.goto("/staff/login");
  await page.getByLabel("E-mail address").fill("registry@college.example");
  await page.getByLabel("Password").fill("demo1234");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
}

/** A college day (YYYY-MM-DD, Lagos) `days` from today. */
const collegeDay = (days: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Lagos" }).format(
    new Date(Date.now() + days * 86_400_000),
  );

async function importFile(page: Page, name: string, lines: string[], dryRun: boolean) {
  await page
    .getByLabel("CSV file", { exact: true })
    .setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(lines.join("\n") + "\n") });
  await page.getByLabel("Dry run: check the file and write nothing").setChecked(dryRun);
  await page.getByRole("button", { name: "Check or import" }).click();
}

test("the registry opens registration for the current session with dates, and a student then registers", async ({
  page,
  browser,
}) => {
  await registrySignIn(page);
  await page
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Sessions" })
    .click();
  const current = page.getByRole("row", { name: /2024\/2025 \(current\)/ });
  await current.getByRole("link", { name: "Registration…" }).click();
  await page.getByLabel("Registration", { exact: true }).selectOption("Closed");
  await page.getByRole("button", { name: "Save registration" }).click();
  await expect(page.getByRole("status")).toHaveText("Registration for 2024/2025 is closed.");
  await expect(current).toContainText("Closed");

  await current.getByRole("link", { name: "Registration…" }).click();
  await page.getByLabel("Registration", { exact: true }).selectOption("Open");
  await page.getByLabel("Opening day (optional)").fill(collegeDay(0));
  await page.getByLabel("Closing day (optional)").fill(collegeDay(7));
  await page.getByRole("button", { name: "Save registration" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Registration for 2024/2025 is open within the dates set.",
  );
  await expect(current).toContainText(/Open \(from .+ to .+\)/);

  const student = await browser.newPage();
  await signIn(student, LOCKED_STUDENT, "/course-reg");
  await waitForIslands(student);
  await expect(student.getByLabel("Session", { exact: true })).toHaveValue("2024/2025");
  await student.getByLabel("Semester", { exact: true }).selectOption({ label: "FIRST" });
  await student.getByLabel("Search courses", { exact: true }).fill("BIO 311");
  await student.getByRole("checkbox", { name: "Select BIO 311" }).check();
  await student.getByRole("button", { name: "Register Courses" }).click();
  await expect(student).toHaveURL(/registered=1/);
  await expect(student.getByText("Your courses have been registered.")).toBeVisible();
  await student.close();

  await page.goto("/staff/audit?action=session.registration");
  await expect(
    page.getByRole("row", { name: /Registration window changed/ }).first(),
  ).toContainText(collegeDay(7));
});

test("the registry imports a courses file and a mappings file: a dry run first, then for real", async ({
  page,
}) => {
  await registrySignIn(page);
  await page.goto("/staff/structure/courses");
  await expect(
    page.getByText("The first line must be exactly code,title,unit,semester"),
  ).toBeVisible();
  const coursesFile = [
    "code,title,unit,semester",
    "CIT 411,Research Methods in Computing,3,first",
    "cit412,Computer Networks,2,1",
  ];
  await importFile(page, "courses.csv", coursesFile, true);
  await expect(page.getByRole("status")).toContainText(
    "Dry run: 2 would be created, 0 updated, 0 unchanged. Nothing was written.",
  );
  await importFile(page, "courses.csv", coursesFile, false);
  await expect(page.getByRole("status")).toContainText(
    "Imported 2 rows: 2 created, 0 updated, 0 unchanged.",
  );
  await page.getByLabel("Find a course").fill("CIT 41");
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByRole("row", { name: /CIT 412/ })).toContainText("Computer Networks");

  await page.goto("/staff/structure/mappings");
  const programme = "B.Sc.(Ed.) Computer Science Education";
  const withMistakes = [
    "course_code,programme,level,semester",
    `CIT 411,${programme},400,first`,
    `CIT 412,${programme},600,first`,
    "CIT 412,B.Sc. Basket Weaving,400,1",
  ];
  await importFile(page, "mappings.csv", withMistakes, true);
  const problems = page.getByRole("table", { name: "Rows to correct" });
  await expect(problems.getByRole("row", { name: /^3 level/ })).toContainText(
    'The level must be 100, 200, 300, 400 or 500; "600" is not.',
  );
  await expect(problems.getByRole("row", { name: /^4 programme/ })).toContainText(
    'There is no programme named "B.Sc. Basket Weaving"',
  );

  const corrected = [
    "course_code,programme,level,semester",
    `CIT 411,${programme},400,first`,
    `CIT 412,${programme},400,first`,
  ];
  await importFile(page, "mappings.csv", corrected, true);
  await expect(page.getByRole("status")).toContainText("Dry run: 2 would be created");
  await importFile(page, "mappings.csv", corrected, false);
  await expect(page.getByRole("status")).toContainText("Imported 2 rows: 2 created");
  await importFile(page, "mappings.csv", corrected, false);
  await expect(page.getByRole("status")).toContainText(
    "Imported 2 rows: 0 created, 0 updated, 2 unchanged.",
  );

  await page.getByLabel("Programme", { exact: true }).first().selectOption({ label: programme });
  await page.getByLabel("Level", { exact: true }).first().selectOption("400");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("row", { name: /CIT 411/ })).toContainText(
    "Research Methods in Computing",
  );
});
