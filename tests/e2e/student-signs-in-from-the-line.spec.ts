import { expect, test } from "@playwright/test";
import { DEMO, holdTheDoor } from "./support.ts";

// The line at the door (decision 193) answers the JavaScript sign-in in the API's shape: the form
// shows the student's place as the line wrote it and keeps trying by itself, for as long as they
// are in line, until their turn comes. The development hook holds the door, without a crowd.

test.afterEach(async ({ request }) => {
  await holdTheDoor(request, false);
});

test("a student whose pass ran out signs in from the line: they see their place and arrive when their turn comes, pressing nothing more", async ({
  page,
  context,
  request,
}) => {
  const signInAnswers: number[] = [];
  page.on("response", (answer) => {
    if (answer.url().endsWith("/api/student/uniben/login")) signInAnswers.push(answer.status());
  });

  await page.goto("/login");
  await expect(page.locator("form[data-enhanced]")).toHaveCount(1);
  // No line stood: opening the page let the student straight in, with a pass.
  expect((await context.cookies()).map((cookie) => cookie.name)).toContain("portal_pass");
  // A pass admits for 15 minutes, long enough to sign in; a student who takes longer (a phone
  // put down, a password looked for) meets the line at the sign-in itself. Deleting the cookie
  // is the browser dropping it at its Max-Age, without waiting the 15 minutes.
  await context.clearCookies({ name: "portal_pass" });
  await holdTheDoor(request, true);

  await page.getByLabel("Phone number").fill(DEMO.returning.phone);
  await page.getByLabel("Password", { exact: true }).fill(DEMO.returning.password);
  await page.getByRole("button", { name: "Sign in" }).click();

  const place = page.getByRole("status").filter({ hasText: /in line/ });
  await expect(place).toHaveText(
    /^Many students are signing in right now\. You are number 1 in line\. .*you keep your place\. This page tries again by itself/,
  );
  await expect(page.getByRole("button", { name: "In line: trying again…" })).toBeVisible();
  // The form asks again by itself, after the seconds the line named, and is still in line: the
  // place shows once, not once per answer, and the student has not been sent anywhere.
  await expect.poll(() => signInAnswers.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  expect(signInAnswers.every((status) => status === 503)).toBe(true);
  await expect(place).toHaveCount(1);
  await expect(place).toContainText("You are number 1 in line");
  await expect(page).toHaveURL("/login");

  await holdTheDoor(request, false);
  // Nothing pressed: the form's next try after the door opens signs the student in.
  await expect(page).toHaveURL("/", { timeout: 20_000 });
  await expect(
    page.getByRole("heading", { name: `Welcome, ${DEMO.returning.othername}` }),
  ).toBeVisible();
  expect(signInAnswers.at(-1)).toBe(200);
});
