import { expect, test } from "@playwright/test";
import { staffSignIn } from "./staff-sign-in.ts";

// The registry's page is plain server-rendered forms: it is used here with JavaScript off. It works
// on the second semester of 2024/2025 and on Chemistry, which no other journey scores or reviews.
test.use({ javaScriptEnabled: false });

test("the registry assigns a course's lecturer, is told what is wrong with a course code, and names a department's head", async ({
  page,
}) => {
  await staffSignIn(page, "registry@college.example");
  await page
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Course lecturers" })
    .click();
  await expect(page.getByRole("heading", { name: "Course lecturers" })).toBeVisible();
  await page.getByLabel("Session", { exact: true }).selectOption("2024/2025");
  await page.getByLabel("Semester", { exact: true }).selectOption({ label: "Second" });
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByRole("heading", { name: "2024/2025, Second Semester" })).toBeVisible();

  const assign = page.getByRole("region", { name: "Assign lecturers to a course" });
  await assign.getByLabel("Course code").fill("XYZ 999");
  await assign.getByLabel("Department whose head approves the result").selectOption("Biology");
  await assign.getByLabel("Dr. Chukwudi Nwosu").check();
  await assign.getByRole("button", { name: "Assign lecturers" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "There is no course XYZ 999. Check the code under Academic structure → Courses.",
  );
  // A first-semester course for the second semester: the API refuses it, and the form keeps the choices.
  await assign.getByLabel("Course code").fill("bio 111");
  await assign.getByRole("button", { name: "Assign lecturers" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "BIO 111 is a semester 1 course; choose semester 1.",
  );
  await expect(assign.getByLabel("Dr. Chukwudi Nwosu")).toBeChecked();
  await expect(assign.getByLabel("Department whose head approves the result")).toHaveValue(/\d+/);

  await assign.getByLabel("Course code").fill("bio 121");
  await assign.getByRole("button", { name: "Assign lecturers" }).click();
  await expect(page.getByRole("status")).toHaveText("Lecturers assigned");
  const row = page.getByRole("row", { name: /^BIO 121/ });
  await expect(row).toContainText("Dr. Chukwudi Nwosu");
  await expect(row).toContainText("Being entered");

  const heads = page.getByRole("region", { name: "Heads of department" });
  await heads.getByLabel("Department", { exact: true }).selectOption("Chemistry");
  await heads.getByLabel("Head of department").selectOption("Prof. Halima Sani");
  await heads.getByRole("button", { name: "Set the head" }).click();
  await expect(page.getByRole("status")).toHaveText("Head of department set");
  await expect(
    page
      .getByRole("region", { name: "Heads of department" })
      .getByRole("row", { name: /^Chemistry/ }),
  ).toContainText("Prof. Halima Sani");
});
