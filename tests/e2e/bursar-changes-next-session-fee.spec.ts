import { expect, test, type Page } from "@playwright/test";
import { TOTP, Secret } from "otpauth";
import { DEMO, signIn, waitForIslands } from "./support.ts";

async function staffSignIn(page: Page, email: string) {
  await page.goto("/staff/login");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password").fill("demo1234");
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Plays the authenticator app for the key shown on the set-up page. */
const codeFor = (key: string) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(key.replaceAll(" ", "")) }).generate();

test("the bursar sets and then changes next session's fee, and a student's quote shows the new amount", async ({ page, browser }) => {
  // The registry creates next session.
  const registry = await browser.newPage();
  await staffSignIn(registry, "registry@college.example");
  await registry.goto("/staff/sessions");
  const next = await registry.getByLabel("Session", { exact: true }).inputValue();
  await registry.getByRole("button", { name: "Create session" }).click();
  await expect(registry.getByRole("status")).toContainText(`${next} created`);
  await registry.close();

  // The bursar must set up an authenticator at first sign-in.
  await staffSignIn(page, "bursar@college.example");
  await expect(page).toHaveURL(/\/staff\/totp/);
  await page.getByRole("button", { name: "Start set-up" }).click();
  const key = (await page.locator(".totp-key").textContent())!;
  await page.getByLabel("Code from the app").fill(codeFor(key));
  await page.getByRole("button", { name: "Confirm" }).click();
  await page.getByRole("link", { name: "Continue" }).click();

  await page.getByRole("navigation", { name: "Staff menu" }).getByRole("link", { name: "Fee schedule" }).click();
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
  const row = page.getByRole("row", { name: new RegExp(`${next} All programmes 100 All Full Payment`) });
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
