import { expect, test } from "@playwright/test";
import { signInWithAuthenticator } from "./staff-sign-in.ts";

// The bursary schedules a school-fee reminder by SMS with a plain form, and cancels it after a
// confirmation (decision 201).
test("the bursar schedules a school fee reminder, is told a past deadline will not do, and cancels it", async ({
  page,
}) => {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Lagos" }).format(new Date());
  const dayAfter = (days: number) => {
    const at = new Date(`${today}T12:00:00Z`);
    at.setUTCDate(at.getUTCDate() + days);
    return at.toISOString().slice(0, 10);
  };
  // A deadline of its own, so a run again on the same portal meets no earlier reminder.
  const deadline = dayAfter(20 + Math.floor(Math.random() * 300));

  await signInWithAuthenticator(page, "bursar@college.example");
  await page
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "SMS reminders" })
    .click();
  await expect(page.getByRole("heading", { name: "SMS reminders", level: 1 })).toBeVisible();
  const kind = page.getByLabel("Remind students who have");
  // The bursary's reminders are about fees only: registration is the registry's.
  await expect(kind.getByRole("option")).toHaveText(["School fee not paid"]);

  await page.getByLabel("Deadline (the last day)").fill(dayAfter(-1));
  await page.getByRole("button", { name: "Schedule reminder" }).click();
  await expect(page.getByRole("alert")).toHaveText("Choose a deadline after today.");

  await page.getByLabel("Deadline (the last day)").fill(deadline);
  await page.getByRole("button", { name: "Schedule reminder" }).click();
  await expect(page.getByRole("status")).toContainText("Reminder scheduled for");
  const spelled = new Date(`${deadline}T12:00:00Z`).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  const row = page.getByRole("row").filter({ hasText: spelled }).filter({ hasText: "Scheduled" });
  await expect(row).toHaveCount(1);

  await row.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("heading", { name: "Cancel this reminder?" })).toBeVisible();
  await page.getByRole("button", { name: "Yes, cancel it" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Reminder cancelled: its texts not yet sent will not go.",
  );
  await expect(page.getByRole("row").filter({ hasText: spelled })).toContainText("Cancelled");
});
