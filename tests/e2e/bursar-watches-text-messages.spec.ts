import { expect, test } from "@playwright/test";
import { signInWithAuthenticator } from "./staff-sign-in.ts";

// The bursary sees each day's text messages and what they cost (decision 200).
test("the bursar sees today's text messages counted on the Text messages page", async ({
  page,
  request,
}) => {
  // A student asks for a password code: one more message today.
  const asked = await request.post("/api/password/request-reset-code", {
    data: { phone: "08030000002" },
  });
  expect(asked.ok()).toBe(true);
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Lagos" }).format(new Date());

  await signInWithAuthenticator(page, "bursar@college.example");
  await page
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Text messages" })
    .click();
  await expect(page.getByRole("heading", { name: "Text messages", level: 1 })).toBeVisible();
  // Sent by the queue a second or two after it was asked for.
  await expect
    .poll(async () => {
      await page.reload();
      const row = page.getByRole("row", { name: new RegExp(`^${today}`) });
      if ((await row.count()) === 0) return 0;
      return Number(await row.getByRole("cell").first().textContent());
    })
    .toBeGreaterThan(0);

  // The field stops more than 90 in the browser; the server says why to an address typed by hand.
  await page.goto("/staff/sms?days=400");
  await expect(page.getByRole("alert")).toHaveText("Give days as a whole number from 1 to 90.");
});
