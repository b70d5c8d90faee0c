import { expect, test, type Page } from "@playwright/test";
import { DEMO, signIn, signInWithoutJavaScript, waitForIslands } from "../support.ts";
import {
  expectFirstScreenControlsReachable,
  expectOpenPanelUsable,
  expectPageFitsPhone,
  expectWhollyShown,
} from "./checks.ts";

// Every page a student opens, on the phone the project emulates: nothing sideways, nothing on
// top of the first screen's controls, targets a thumb can hit. Checks are soft, so one run lists
// every page that fails rather than stopping at the first. One sign-in per test: the pages only
// read, so they share it. The returning demo student has payments, slips and an approved
// registration (100 level, 2023/2024) to show.

const SEEDED_FEE = "CCE-20231009-4D7KQ2M9XW3P";
const SEEDED_HOSTEL = "CCE-20231012-8B2N6R4T1V9C";

const PUBLIC_PAGES = [
  "/login",
  "/reset-password",
  "/reset-password?sent=1",
  "/password/reset",
  "/password/code",
];

const STUDENT_PAGES = [
  "/",
  "/payment",
  "/history/payments",
  `/invoice/school-fee/${SEEDED_FEE}`,
  `/invoice/hostel/${SEEDED_HOSTEL}`,
  "/course-reg",
  // The picker's states a plain form reaches: a semester's course table, a code search, the registered table.
  "/course-reg?semester=1",
  "/course-reg?code=EDU",
  "/course-reg?session=2023%2F2024&level=100&keep_registered=1",
  "/course-reg/history",
  "/course-reg/print?level=100&session=2023%2F2024",
  "/biodata",
  "/complaint",
  "/library",
  "/results",
  // The returning student has no card for 2024/2025: the page lists what is missing.
  "/exam-card",
  "/exam-card?semester=2",
  "/no-such-page",
];

async function checkEachPage(page: Page, paths: string[], javaScript: boolean) {
  for (const path of paths) {
    await test.step(path, async () => {
      await page.goto(path);
      if (javaScript) await waitForIslands(page);
      await expectPageFitsPhone(page, { soft: true });
    });
  }
}

/** The top bar's two popovers, open on the dashboard: the side menu and the Appearance panel. */
async function checkTopBarPanels(page: Page) {
  await test.step("the side menu and the Appearance panel, open", async () => {
    await page.goto("/");
    await page.getByRole("button", { name: "Show or hide the menu" }).click();
    const menu = page.getByRole("complementary", { name: "Main menu" });
    await expect(menu).toBeVisible();
    await expectOpenPanelUsable(menu, { soft: true });
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await page.getByRole("button", { name: "Appearance" }).click();
    const panel = page.getByRole("complementary", { name: "Appearance" });
    await expect(panel).toBeVisible();
    await expectOpenPanelUsable(panel, { soft: true });
  });
}

/**
 * The dashboard's newsfeed on a phone is a list that wraps (issue 30): each announcement is read
 * whole where it stands, not a marquee a long one takes a minute to cross.
 */
async function checkNewsfeedWraps(page: Page) {
  await test.step("the newsfeed's announcements, each whole on the screen", async () => {
    await page.goto("/");
    const announcements = page.getByRole("region", { name: "Announcements" }).getByRole("listitem");
    await expect(announcements.first()).toBeVisible();
    for (const announcement of await announcements.all())
      await expectWhollyShown(announcement, { soft: true });
  });
}

/** The public page a slip's QR code opens, found on the slip as a phone's camera would. */
async function slipVerificationPage(page: Page) {
  await page.goto(`/invoice/school-fee/${SEEDED_FEE}`);
  return new URL((await page.locator("[data-verify-link]").getAttribute("href"))!).pathname;
}

/** The public page the QR code on printed results opens. */
async function resultsVerificationPage(page: Page) {
  await page.goto("/results");
  return new URL((await page.locator("[data-verify-link]").getAttribute("href"))!).pathname;
}

const verificationPages = async (page: Page) => [
  await slipVerificationPage(page),
  await resultsVerificationPage(page),
];

test("every student page fits the phone, with JavaScript", async ({ page }) => {
  test.setTimeout(120_000);
  await checkEachPage(page, PUBLIC_PAGES, true);
  await signIn(page, DEMO.returning);
  // At once, while 'Login successful' is showing: it must not lie on the top bar's controls.
  await test.step("the dashboard sign-in lands on", () =>
    expectFirstScreenControlsReachable(page, { soft: true }));
  await checkEachPage(page, [...STUDENT_PAGES, ...(await verificationPages(page))], true);
  await checkNewsfeedWraps(page);
  await checkTopBarPanels(page);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("every student page fits the phone, without JavaScript", async ({ page }) => {
    test.setTimeout(120_000);
    await checkEachPage(page, PUBLIC_PAGES, false);
    await signInWithoutJavaScript(page, DEMO.returning, "/");
    await test.step("the dashboard sign-in lands on", () =>
      expectFirstScreenControlsReachable(page, { soft: true }));
    await checkEachPage(page, [...STUDENT_PAGES, ...(await verificationPages(page))], false);
    await checkNewsfeedWraps(page);
    await checkTopBarPanels(page);
  });
});
