import { expect, test } from "@playwright/test";
import { DEMO, holdTheDoor, PORTAL_ORIGIN, signIn } from "./support.ts";

// Deadline day without a crowd: the development hook holds the door (decision 193), so every
// newcomer waits as they would when the portal is full, and lets it go again.

test.afterEach(async ({ request }) => {
  await holdTheDoor(request, false);
});

test("a student in line without JavaScript keeps their place, is let in, and lands on sign-in with where they were going", async ({
  browser,
  page,
  request,
}) => {
  // A student signed in before the line formed carries on while it stands.
  await signIn(page, DEMO.returning);
  await holdTheDoor(request, true);

  const context = await browser.newContext({ baseURL: PORTAL_ORIGIN, javaScriptEnabled: false });
  const newcomer = await context.newPage();
  const answer = await newcomer.goto("/course-reg");
  expect(answer?.status()).toBe(503);
  await expect(newcomer.getByRole("heading", { name: "You are in line" })).toBeVisible();
  await expect(newcomer.getByText("Your place: 1")).toBeVisible();
  await expect(newcomer.getByText(/Keep this page open/)).toBeVisible();
  // Checking again keeps the place; it does not move the student back.
  await newcomer.getByRole("link", { name: "Check now" }).click();
  await expect(newcomer.getByText("Your place: 1")).toBeVisible();

  await page.goto("/payment");
  await expect(page.getByRole("heading", { name: "You are in line" })).toHaveCount(0);
  await expect(page).toHaveURL("/payment");

  await holdTheDoor(request, false);
  // The page refreshes itself: no click, no script.
  await expect(newcomer).toHaveURL("/login?next=%2Fcourse-reg", { timeout: 20_000 });
  await newcomer.getByLabel("Phone number").fill(DEMO.returning.phone);
  await newcomer.getByLabel("Password", { exact: true }).fill(DEMO.returning.password);
  await newcomer.getByRole("button", { name: "Sign in" }).click();
  await expect(newcomer).toHaveURL("/course-reg");
  await context.close();
});
