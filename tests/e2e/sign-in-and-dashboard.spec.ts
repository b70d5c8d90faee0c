import { expect, test } from "@playwright/test";
import { DEMO, signIn, signInWithoutJavaScript } from "./support.ts";

test("a student signs in, sees the dashboard, reloads, and signs out", async ({ page }) => {
  await signIn(page, DEMO.returning);
  await expect(
    page.getByRole("heading", { name: `Welcome, ${DEMO.returning.othername}` }),
  ).toBeVisible();
  await expect(page.getByText("Okonkwo Chiamaka Grace", { exact: true })).toBeVisible();
  await expect(page.getByText("Student", { exact: true })).toBeVisible();
  await expect(page.getByText("chiamaka.okonkwo@example.com")).toBeVisible();
  await expect(page.getByRole("region", { name: "School Fee" })).toContainText("Not Paid");
  await expect(page.getByRole("region", { name: "Course Registration" })).toContainText("NO");
  const candidate = page.getByRole("region", { name: "Candidate Details" });
  await expect(candidate.getByRole("row", { name: /Matric Number/ })).toContainText(
    "CCE/2023/BIO/0042",
  );
  await expect(candidate.getByRole("row", { name: /School/ }).first()).toContainText(
    "School of Sciences",
  );
  await expect(page.getByRole("region", { name: "Newsfeed" })).toContainText(
    "Course registration for the 2024/2025 session",
  );
  // The token lives in an HttpOnly cookie; page scripts see the student record only.
  expect(await page.evaluate(() => document.cookie)).toBe("");
  expect(await page.evaluate(() => sessionStorage.getItem("user-info"))).toContain("Chiamaka");

  await page.reload();
  await expect(
    page.getByRole("heading", { name: `Welcome, ${DEMO.returning.othername}` }),
  ).toBeVisible();

  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login/);
  expect(await page.evaluate(() => sessionStorage.getItem("user-info"))).toBeNull();
  await page.goto("/");
  await expect(page).toHaveURL("/login?next=%2F");
});

test("'Login successful' shows on the page sign-in leads to, for 2 seconds, once", async ({
  page,
}) => {
  await signIn(page, DEMO.fresher, "/history/payments");
  const toast = page.getByRole("status").filter({ hasText: "Login successful" });
  await expect(toast).toBeVisible();
  await expect(toast).toBeHidden({ timeout: 4_000 });
  await page.reload();
  await expect(page.getByText("Login successful")).toHaveCount(0);
});

test("on a shared computer the browser keeps no personal details, and nothing once the session is gone", async ({
  page,
  context,
}) => {
  const storedNow = () =>
    page.evaluate(() =>
      JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }),
    );
  await signIn(page, DEMO.returning);
  const stored = await storedNow();
  for (const personal of [
    DEMO.returning.phone,
    "chiamaka.okonkwo@example.com",
    "dob",
    "yob",
    "email",
    "phone",
  ]) {
    expect(stored).not.toContain(personal);
  }
  expect(
    JSON.parse(await page.evaluate(() => sessionStorage.getItem("user-info") ?? "{}")),
  ).toMatchObject({
    othername: DEMO.returning.othername,
  });
  expect(await page.evaluate(() => localStorage.length)).toBe(0);
  // The full record an earlier version of the portal kept in localStorage goes on the next page.
  await page.evaluate(() =>
    localStorage.setItem("user-info", JSON.stringify({ phone: "08030000001" })),
  );
  await page.reload();
  expect(await page.evaluate(() => localStorage.length)).toBe(0);

  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login/);
  expect(await storedNow()).toBe(JSON.stringify({ local: {}, session: {} }));

  // The session cookie lost (expired, cleared): the next page is sign-in, and storage is cleared.
  await signIn(page, DEMO.returning);
  await context.clearCookies();
  await page.goto("/payment");
  await expect(page).toHaveURL("/login?next=%2Fpayment");
  expect(await storedNow()).toBe(JSON.stringify({ local: {}, session: {} }));
});

test("a wrong password shows 'Failed, try again' and the server's message", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Phone number").fill(DEMO.fresher.phone);
  await page.getByLabel("Password", { exact: true }).fill("not-my-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Failed, try again" })).toBeVisible();
  const refusal = page
    .getByRole("alert")
    .filter({ hasText: "That phone number or password is wrong. Check both and try again." });
  await expect(refusal).toBeVisible();
  await expect(page).toHaveURL("/login");
  // A refusal stays until it is dismissed (a confirmation goes after 2 seconds); a retry replaces it.
  await page.waitForTimeout(3_000);
  await expect(refusal).toBeVisible();
  // The retry's answer must be in before the refusal is dismissed, or it would bring it back.
  const retried = page.waitForResponse((response) =>
    response.url().endsWith("/api/student/uniben/login"),
  );
  await page.getByRole("button", { name: "Failed, try again" }).click();
  await retried;
  await expect(page.getByRole("button", { name: "Failed, try again" })).toBeVisible();
  await expect(refusal).toHaveCount(1);
  await page.locator(".toasts").getByRole("button", { name: "Dismiss" }).click();
  await expect(refusal).toHaveCount(0);
});

// At a deadline the portal may answer "busy" (503, Retry-After; decision 112). The busy answer
// is played here by the test, since the portal answers it only when overloaded; the second
// attempt reaches the real portal.
test("a busy portal's sign-in tries again by itself after the time it names", async ({ page }) => {
  let attempts = 0;
  await page.route("**/api/student/uniben/login", async (route) => {
    attempts += 1;
    if (attempts > 1) return route.continue();
    await route.fulfill({
      status: 503,
      headers: { "retry-after": "2", "content-type": "application/json" },
      body: JSON.stringify({
        status: "error",
        message:
          "Many students are using the portal right now, so your request was not handled and nothing was changed. Please try again in 2 seconds.",
        error: { message: "Many students are using the portal right now." },
      }),
    });
  });
  await page.goto("/login");
  await page.getByLabel("Phone number").fill(DEMO.fresher.phone);
  await page.getByLabel("Password", { exact: true }).fill(DEMO.fresher.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: "The portal is busy. Signing in again in 2 seconds" }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Portal busy: trying again…" })).toBeVisible();
  // Nothing pressed: the form sends itself again and the student arrives.
  await expect(page).toHaveURL("/");
  await expect(
    page.getByRole("heading", { name: `Welcome, ${DEMO.fresher.othername}` }),
  ).toBeVisible();
  expect(attempts).toBe(2);
});

test("a signed-out visit to /payment lands on sign-in and returns to /payment", async ({
  page,
}) => {
  await page.goto("/payment");
  await expect(page).toHaveURL("/login?next=%2Fpayment");
  await page.getByLabel("Phone number").fill(DEMO.fresher.phone);
  await page.getByLabel("Password", { exact: true }).fill(DEMO.fresher.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL("/payment");
});

test("the side menu starts collapsed at 1000px wide and the menu button toggles it", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1000, height: 800 });
  await signIn(page, DEMO.fresher);
  const menu = page.getByRole("complementary", { name: "Main menu" });
  const toggle = page.getByRole("button", { name: "Show or hide the menu" });
  await expect(menu).toBeHidden();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("link", { name: "Payments" })).toBeVisible();
  await toggle.click();
  await expect(menu).toBeHidden();

  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(menu).toBeVisible();
});

test("the Appearance panel opens on the right from the top bar, with tabs a keyboard can use", async ({
  page,
}) => {
  await signIn(page, DEMO.fresher);
  const panel = page.getByRole("complementary", { name: "Appearance" });
  await expect(panel).toBeHidden();
  await page.getByRole("button", { name: "Appearance" }).focus();
  await page.keyboard.press("Enter");
  await expect(panel).toBeVisible();
  const box = (await panel.boundingBox())!;
  expect(box.x + box.width).toBeCloseTo(page.viewportSize()!.width, 0);

  const tab = (name: string) => panel.getByRole("tab", { name });
  await expect(panel.getByRole("tablist", { name: "Appearance" })).toBeVisible();
  await expect(tab("Activity")).toHaveAttribute("aria-selected", "true");
  await expect(panel.getByRole("tabpanel", { name: "Activity" })).toContainText(
    "You signed in to the portal.",
  );
  await tab("Activity").focus();
  await page.keyboard.press("ArrowRight");
  await expect(tab("Tasks")).toBeFocused();
  await expect(tab("Tasks")).toHaveAttribute("aria-selected", "true");
  await expect(panel.getByRole("tabpanel", { name: "Tasks" })).toContainText("75%");
  await expect(panel.getByRole("tabpanel", { name: "Activity" })).toBeHidden();
  await page.keyboard.press("End");
  await expect(tab("Settings")).toBeFocused();
  await expect(panel.getByRole("switch", { name: "Notifications Popup" })).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(tab("Activity")).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(tab("Settings")).toBeFocused();
  await page.keyboard.press("Home");
  await expect(tab("Activity")).toHaveAttribute("aria-selected", "true");
  // Only the selected tab is in the Tab order: Tab goes on to its panel.
  await expect(tab("Tasks")).toHaveAttribute("tabindex", "-1");
  await page.keyboard.press("Tab");
  await expect(panel.getByRole("tabpanel", { name: "Activity" })).toBeFocused();

  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the Appearance panel opens and shows all three sections", async ({ page }) => {
    await page.goto("/login?next=%2F");
    await page.getByLabel("Phone number").fill(DEMO.fresher.phone);
    await page.getByLabel("Password", { exact: true }).fill(DEMO.fresher.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Appearance" }).click();
    const panel = page.getByRole("complementary", { name: "Appearance" });
    for (const section of ["Activity", "Tasks", "Settings"]) {
      await expect(panel.getByRole("heading", { name: section })).toBeVisible();
    }
    await expect(panel.getByText("Sample project")).toBeVisible();
    await expect(panel.getByRole("switch", { name: "Auto updates" })).toBeVisible();
    await panel.getByRole("button", { name: "Close" }).click();
    await expect(panel).toBeHidden();
  });

  test("sign-in still works and the dashboard is readable", async ({ page }) => {
    await page.goto("/login?next=%2F");
    await page.getByLabel("Phone number").fill(DEMO.returning.phone);
    await page.getByLabel("Password", { exact: true }).fill(DEMO.returning.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL("/");
    await expect(
      page.getByRole("heading", { name: `Welcome, ${DEMO.returning.othername}` }),
    ).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Login successful" })).toBeVisible();
  });

  test("on a phone the side menu starts collapsed and the menu button opens and closes it", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await signInWithoutJavaScript(page, DEMO.fresher, "/");
    const menu = page.getByRole("complementary", { name: "Main menu" });
    const toggle = page.getByRole("button", { name: "Show or hide the menu" });
    await expect(menu).toBeHidden();
    // The page starts with what the student came for, not the menu.
    await expect(page.getByRole("heading", { name: /^Welcome, / })).toBeInViewport();
    await toggle.click();
    await expect(menu.getByRole("link", { name: "Payments" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await toggle.click();
    await menu.getByRole("link", { name: "Complaint" }).click();
    await expect(page).toHaveURL("/complaint");
    await expect(menu).toBeHidden();

    // A wide screen shows the menu in the page, and no button that would only float it.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(menu).toBeVisible();
    await expect(toggle).toBeHidden();
  });

  test("a wrong password explains itself", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Phone number").fill(DEMO.returning.phone);
    await page.getByLabel("Password", { exact: true }).fill("wrong-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert")).toHaveText(
      "That phone number or password is wrong. Check both and try again.",
    );
    // Both fields point a screen reader at the refusal.
    for (const field of [
      page.getByLabel("Phone number"),
      page.getByLabel("Password", { exact: true }),
    ]) {
      await expect(field).toHaveAttribute("aria-invalid", "true");
      await expect(field).toHaveAccessibleDescription(
        "That phone number or password is wrong. Check both and try again.",
      );
    }
  });
});

test("unknown addresses show the application error page with a way back", async ({ page }) => {
  await signIn(page, DEMO.fresher);
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Unexpected Application Error!" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to the dashboard" })).toBeVisible();
});
