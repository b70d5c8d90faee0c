import { expect, test, type Locator, type Page } from "@playwright/test";
import {
  expectNoSidewaysOverflow,
  expectOpenPanelUsable,
  expectTapsReach,
  expectTapTargets,
} from "./phone/checks.ts";
import { PHONE_360 } from "./phone/phones.ts";
import { DEMO, signIn, signInWithoutJavaScript, waitForIslands } from "./support.ts";
import { withoutPopovers } from "./without-popovers.ts";

// A cheap Android phone (issue 29): 360 px wide, touch, a dense screen.
test.use(PHONE_360);

function topBarControls(page: Page) {
  return {
    menu: page.getByRole("button", { name: "Show or hide the menu" }),
    profile: page.getByRole("link", { name: "Profile" }),
    logout: page.getByRole("button", { name: "Logout" }),
    appearance: page.getByRole("button", { name: "Appearance" }),
  };
}

async function expectTopBarTappable(page: Page) {
  for (const control of Object.values(topBarControls(page))) await expectTapsReach(control);
}

/** A faded toast keeps its box until the page changes: a tap there reaches what lies under it. */
async function expectFadedToastsLetTapsThrough(page: Page) {
  const landsInToasts = await page.locator("#toasts").evaluate((region) => {
    const box = region.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    return region.contains(
      document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2),
    );
  });
  expect(landsInToasts).toBe(false);
}

/** The toast, once it has slid in, does not reach up into the top bar (Profile, Logout, Appearance). */
async function expectBelowTopBar(page: Page, toast: Locator) {
  const topBar = (await page.locator(".top-bar").boundingBox())!;
  await expect
    .poll(async () => (await toast.boundingBox())?.y)
    .toBeGreaterThanOrEqual(topBar.y + topBar.height);
}

test("right after signing in, Profile, Logout, Appearance and the menu take taps, during 'Login successful' and after it fades", async ({
  page,
}) => {
  await signIn(page, DEMO.returning);
  const flash = page.getByRole("status").filter({ hasText: "Login successful" });
  await expect(flash).toBeVisible();
  await expectTopBarTappable(page);
  await expectBelowTopBar(page, flash);
  await expect(flash).toBeHidden();
  await expectTopBarTappable(page);
  await expectFadedToastsLetTapsThrough(page);

  await topBarControls(page).profile.tap();
  await expect(page).toHaveURL("/biodata");
});

test("a refusal from the small toaster sits below the top bar with a close button a thumb can hit", async ({
  page,
}) => {
  await signIn(page, DEMO.returning, "/complaint");
  await expect(page.locator("form[data-enhanced]")).toHaveCount(1);
  await page.route("**/api/complaint/", (route) => route.abort());
  await page.getByLabel("Subject").fill("Missing result");
  await page.getByLabel("Message").fill("My EDU 211 result does not show on my record.");
  await page.getByRole("button", { name: "Send Complaint" }).tap();
  const toast = page.locator("#toasts .toast-error");
  await expect(toast).toContainText("We could not reach the portal.");
  await expectBelowTopBar(page, toast);
  await expectTopBarTappable(page);
  const dismiss = toast.getByRole("button", { name: "Dismiss" });
  await expectTapTargets(dismiss);
  await dismiss.tap();
  await expect(toast).toHaveCount(0);
});

test("a refusal from an island's toaster sits below the top bar with a close button a thumb can hit", async ({
  page,
}) => {
  await signIn(page, DEMO.fresher, "/payment");
  await waitForIslands(page);
  await page.getByLabel("Payment category").selectOption("second_installment");
  await page.getByLabel("Level").selectOption("100");
  await page.getByLabel("Session").selectOption("2022/2023");
  const toast = page
    .locator("[data-sonner-toast]")
    .filter({ hasText: /^Pay the first installment/ });
  await expect(toast).toBeVisible();
  await expectBelowTopBar(page, toast);
  await expectTopBarTappable(page);
  const close = toast.getByRole("button", { name: /close/i });
  await expectTapTargets(close);
  await close.tap();
  await expect(toast).toHaveCount(0);
});

test("every control of the shell and the library's breadcrumb is big enough for a thumb", async ({
  page,
}) => {
  await signIn(page, DEMO.returning, "/library");
  await expect(page.getByRole("status").filter({ hasText: "Login successful" })).toBeHidden();
  await expectTapTargets(page.getByRole("banner"));
  await expect(page.getByRole("banner").getByRole("link", { name: "Profile" })).toBeVisible();
  await expectTapTargets(page.getByRole("navigation", { name: "Breadcrumb" }));
  // The footer has no links today; any it gets must be thumb-sized too.
  await expectTapTargets(page.getByRole("contentinfo"));

  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expectTapTargets(skip);

  await topBarControls(page).menu.tap();
  await expectOpenPanelUsable(page.getByRole("complementary", { name: "Main menu" }));
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("right after signing in, the top bar takes taps during 'Login successful' and after it fades", async ({
    page,
  }) => {
    await signInWithoutJavaScript(page, DEMO.returning, "/");
    const flash = page.getByRole("status").filter({ hasText: "Login successful" });
    await expect(flash).toBeVisible();
    await expectTopBarTappable(page);
    await expectBelowTopBar(page, flash);
    await expect(flash).toBeHidden();
    await expectTopBarTappable(page);
    await expectFadedToastsLetTapsThrough(page);

    await topBarControls(page).profile.tap();
    await expect(page).toHaveURL("/biodata");
  });
});

/** The page is no wider than the phone, and its content keeps most of the width. */
async function expectReadableWidth(page: Page) {
  await expectNoSidewaysOverflow(page);
  const width = page.viewportSize()!.width;
  const main = (await page.locator("main").boundingBox())!;
  expect(main.width).toBeGreaterThanOrEqual(width - 60);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`in a browser without popovers, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("the dashboard, payment and course pages keep their width and the menu's links can be followed", async ({
      page,
    }) => {
      if (javaScriptEnabled) await signIn(page, DEMO.fresher);
      else await signInWithoutJavaScript(page, DEMO.fresher, "/");
      await withoutPopovers(page);

      await page.goto("/");
      await expectReadableWidth(page);
      await expect(page.getByRole("heading", { name: /^Welcome, / })).toBeInViewport();
      const menu = page.getByRole("complementary", { name: "Main menu" });
      await page.getByRole("link", { name: "Go to the menu" }).tap();
      await expect(menu.getByRole("link", { name: "Payments" })).toBeInViewport();
      await expectTapTargets(menu.getByRole("link"));
      await menu.getByRole("link", { name: "Payments" }).tap();

      await expect(page).toHaveURL("/payment");
      await expectReadableWidth(page);
      // Nothing of the shell lies over the payment choices.
      await expectTapsReach(page.locator("main select"));
      await page.getByRole("link", { name: "Go to the menu" }).tap();
      await menu.getByRole("link", { name: "New Registration" }).tap();

      await expect(page).toHaveURL("/course-reg");
      await expectReadableWidth(page);
      await expectTopBarControlsWithoutPopovers(page);
    });
  });
}

/** Without popovers the top bar offers no control that would do nothing. */
async function expectTopBarControlsWithoutPopovers(page: Page) {
  const { menu, profile, logout, appearance } = topBarControls(page);
  await expect(menu).toBeHidden();
  await expect(appearance).toBeHidden();
  for (const control of [profile, logout, page.getByRole("link", { name: "Go to the menu" })])
    await expectTapsReach(control);
}
