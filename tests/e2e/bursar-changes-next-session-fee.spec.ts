import { expect, test } from "@playwright/test";
import { DEMO, signIn, waitForIslands } from "./support.ts";
import { signInWithAuthenticator, staffSignIn } from "./staff-sign-in.ts";

test("the bursar sets and then changes next session's fee, and a student's quote shows the new amount", async ({
  page,
  browser,
}) => {
  // The registry creates next session.
  const registry = await browser.newPage();
  await staffSignIn(registry, "registry@college.example");
  await registry.goto("/staff/sessions");
  const next = await registry.getByLabel("Session", { exact: true }).inputValue();
  await registry.getByRole("button", { name: "Create session" }).click();
  await expect(registry.getByRole("status")).toContainText(`${next} created`);
  await registry.close();

  // The bursar must set up an authenticator at first sign-in (or uses the one set up before).
  await signInWithAuthenticator(page, "bursar@college.example");

  await page
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Fee schedule" })
    .click();
  const add = page.locator("section", { has: page.getByRole("heading", { name: "Add a fee" }) });
  await add.getByLabel("Session").selectOption(next);
  await add.getByLabel("Level").selectOption("100");
  await add.getByLabel("Payment option").selectOption("Full Payment");
  await add.getByLabel("Amount (naira)").fill("-130,000");
  await add.getByRole("button", { name: "Add fee" }).click();
  await expect(page.getByRole("alert")).toContainText("A fee cannot be negative");

  await add.getByLabel("Session").selectOption(next);
  await add.getByLabel("Level").selectOption("100");
  await add.getByLabel("Payment option").selectOption("Full Payment");
  await add.getByLabel("Amount (naira)").fill("130,000.00");
  await add.getByRole("button", { name: "Add fee" }).click();
  await expect(page.getByRole("status")).toHaveText("Fee of ₦130,000 saved.");

  await page.locator("form[method=get]").getByLabel("Session").selectOption(next);
  await page.getByRole("button", { name: "Show" }).click();
  const row = page.getByRole("row", {
    name: new RegExp(`${next} All programmes 100 All Full Payment`),
  });
  await expect(row).toContainText("₦130,000.00");
  await row.getByRole("link", { name: "Edit" }).click();
  await page.locator("#edit").getByLabel("Amount (naira)").fill("131,250");
  await page.getByRole("button", { name: "Save amount" }).click();
  await expect(page.getByRole("status")).toHaveText("The fee is now ₦131,250.");
  await expect(row).toContainText("₦131,250.00");

  const student = await browser.newPage();
  await signIn(student, DEMO.fresher, "/payment");
  await waitForIslands(student);
  await student.getByLabel("Payment category").selectOption("full");
  await student.getByLabel("Level").selectOption("100");
  await student.getByLabel("Session").selectOption(next);
  await expect(student.getByTestId("fee-amount")).toHaveText("₦131,250");
  await student.close();
});

test("the fee import's report opens the page after Check or import, naming the study modes the registry keeps", async ({
  page,
}) => {
  await signInWithAuthenticator(page, "bursar@college.example");
  await page.goto("/staff/fees");
  const csv =
    "session,programme,level,study_mode,payment_option,amount_naira\n2024/2025,,100,Weekend,Full Payment,130000\n";
  await page
    .getByLabel("CSV file", { exact: true })
    .setInputFiles({ name: "fees.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Check or import" }).click();

  // Issue 30, item 13: the report comes before the schedule, in view without scrolling.
  const report = page.getByRole("region", { name: "Check of the fee file" });
  await expect(report).toBeInViewport();
  await expect(report.getByRole("alert")).toBeVisible();
  await expect(report).toContainText('There is no study mode "Weekend"');
  await expect(report).toContainText('"Part-Time"');
  const beforeTheSchedule = await report.evaluate((element) => {
    const filters = document.querySelector("form[method=get]")!;
    return Boolean(element.compareDocumentPosition(filters) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  expect(beforeTheSchedule).toBe(true);
});
