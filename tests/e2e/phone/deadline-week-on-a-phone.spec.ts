import { expect, test, type Page } from "@playwright/test";
import { freshStudent } from "../fresh-student.ts";
import { SANDBOX_ORIGIN, signIn, waitForIslands } from "../support.ts";
import { expectInViewport, expectPageFitsPhone } from "./checks.ts";

// Deadline week on a cheap phone, with JavaScript: a new student pays the school fee by card,
// registers the first semester's courses and opens the slip, every page checked on the way.
// The checks are soft, so one run names every page that fails; the steps themselves are not.

async function tickEveryCourse(page: Page) {
  const table = page.getByRole("table", { name: "Courses you can register" });
  await expect(table.getByRole("checkbox").first()).toBeVisible();
  for (;;) {
    for (const box of await table.getByRole("checkbox").all()) await box.check();
    const next = page.getByRole("button", { name: "Next" });
    if (await next.isDisabled()) return;
    await next.click();
  }
}

test("a new student pays the school fee, registers courses, opens the slip and signs out on a phone", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // A student of their own for each phone size, since both pay the same fee in one run.
  const student = await freshStudent(browser, test.info().project.name === "phone-360" ? 81 : 82);
  const soft = { soft: true };

  await signIn(page, student, "/payment");
  await expectPageFitsPhone(page, soft);
  await waitForIslands(page);
  await page.getByLabel("Payment category").selectOption("full");
  await page.getByLabel("Level").selectOption("100");
  await page.getByLabel("Session").selectOption("2024/2025");
  await expectInViewport(page.getByTestId("fee-amount"), soft);
  await expectPageFitsPhone(page, soft);

  await page.getByRole("button", { name: "Proceed to payment" }).click();
  await expect(page).toHaveURL(new RegExp(`^${SANDBOX_ORIGIN}/checkout/`));
  await page.getByRole("button", { name: /^Pay ₦/ }).click();
  await expect(page).toHaveURL("/successful");
  await expectInViewport(page.getByRole("heading", { name: "Payment successful" }), soft);
  await expect(page).toHaveURL("/history/payments", { timeout: 10_000 });
  await expect(page.getByRole("row").filter({ hasText: "2024/2025" }).first()).toContainText(
    "Success",
  );
  await expectPageFitsPhone(page, soft);

  await page.goto("/course-reg");
  await waitForIslands(page);
  await page.getByLabel("Semester", { exact: true }).selectOption({ label: "FIRST" });
  await tickEveryCourse(page);
  await expectPageFitsPhone(page, soft);
  await page.getByRole("button", { name: "Register Courses" }).click();
  await expect(page).toHaveURL(/\/course-reg\?session=2024%2F2025&level=100&registered=1$/);
  await waitForIslands(page);
  await expectInViewport(page.getByText("Your courses have been registered."), soft);
  await expectPageFitsPhone(page, soft);

  await page.getByRole("button", { name: "View Registered Courses" }).click();
  await page.getByRole("link", { name: "Go to Printout" }).click();
  await expect(page).toHaveURL("/course-reg/print?level=100&session=2024%2F2025");
  await expect(page.getByRole("button", { name: "Print file" })).toBeVisible();
  await expectPageFitsPhone(page, soft);

  await page.goto("/");
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login/);
  await expectPageFitsPhone(page, soft);
});
