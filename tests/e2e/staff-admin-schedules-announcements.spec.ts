import { expect, test } from "@playwright/test";
import { DEMO, signIn } from "./support.ts";
import { signInAsAdministrator } from "./staff-sign-in.ts";

// Runs after staff-accounts.spec.ts (files run in name order), which enrols the administrator's
// authenticator; signInAsAdministrator uses the key it kept.

/** The college's date in Lagos, `days` from today, as a date field wants it. */
const lagosDay = (days: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Lagos" }).format(
    new Date(Date.now() + days * 24 * 60 * 60_000),
  );

test("an announcement scheduled for tomorrow is not on today's dashboard; one for today is, with its markup shown as text", async ({
  page,
  browser,
}) => {
  await signInAsAdministrator(page);
  await page
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Announcements" })
    .click();
  const form = page.locator("section", {
    has: page.getByRole("heading", { name: "New announcement" }),
  });

  await form.getByLabel("Text").fill("Matriculation ceremony holds tomorrow.");
  await form.getByLabel("First day to show (optional)").fill(lagosDay(1));
  await form.getByRole("button", { name: "Publish announcement" }).click();
  await expect(page.getByRole("status")).toContainText("Announcement saved. Students see it from");
  await expect(page.getByRole("row", { name: /Matriculation ceremony/ })).toContainText(
    "Scheduled",
  );

  await form
    .getByLabel("Text")
    .fill(
      "<img src=x onerror=\"document.title='pwned'\"> Library closes at 4 p.m.\nOpen again on Monday.",
    );
  await form.getByLabel("Last day to show (optional)").fill(lagosDay(0));
  await form.getByRole("button", { name: "Publish announcement" }).click();
  await expect(page.getByRole("status")).toContainText("Announcement published on the dashboard.");

  const student = await browser.newPage();
  await signIn(student, DEMO.returning);
  const feed = student.getByRole("region", { name: "Announcements" });
  await expect(feed).toContainText(
    "<img src=x onerror=\"document.title='pwned'\"> Library closes at 4 p.m.",
  );
  await expect(feed).not.toContainText("Matriculation ceremony");
  await expect(feed.locator("img")).toHaveCount(0);
  expect(await student.title()).not.toBe("pwned");
  await student.close();

  await page.goto("/staff/audit");
  await expect(page.getByRole("row", { name: /Announcement added/ }).first()).toBeVisible();
});

test("the administrator hides a library item and students no longer see it", async ({
  page,
  browser,
}) => {
  await signInAsAdministrator(page);
  await page.goto("/staff/library");
  const row = page.getByRole("row", { name: /Psychology 2e/ });
  await row.getByRole("button", { name: "Hide" }).click();
  await expect(page.getByRole("status")).toContainText("is hidden from students.");

  const form = page.locator("section", { has: page.getByRole("heading", { name: "Add an item" }) });
  await form.getByLabel("Description").fill("Unsafe link");
  // The browser's own url check would stop this; the server's is what counts.
  await form
    .getByLabel("Address (http or https)")
    .evaluate((field: HTMLInputElement) => (field.type = "text"));
  await form.getByLabel("Address (http or https)").fill("javascript:alert(1)");
  await form.getByRole("button", { name: "Add to library" }).click();
  await expect(page.getByRole("alert")).toContainText("A library item needs an http(s) address.");

  const student = await browser.newPage();
  await signIn(student, DEMO.returning, "/library");
  await expect(student.getByRole("link", { name: /^Open/ })).toHaveCount(11);
  await expect(student.getByText("Psychology 2e")).toHaveCount(0);
  await student.close();

  await page.goto("/staff/library");
  await page
    .getByRole("row", { name: /Psychology 2e/ })
    .getByRole("button", { name: "Show" })
    .click();
  await expect(page.getByRole("status")).toContainText("is shown to students again.");
});
