import { expect, test, type Locator, type Page } from "@playwright/test";
import sharp from "sharp";
import { freshStudent } from "../fresh-student.ts";
import { signInWithAuthenticator, staffSignIn } from "../staff-sign-in.ts";
import { PORTAL_ORIGIN, signIn } from "../support.ts";
import { expectNoSidewaysOverflow, expectPageFitsPhone, expectTapsReach } from "./checks.ts";

// Every staff page each role can open, on the phone the project emulates (issue 30): nothing
// sideways, nothing on top of the first screen's controls, targets a thumb can hit. Checks are
// soft, so one run lists every page that fails. The staff pages have no islands (plain forms
// rendered on the server), so one pass with JavaScript is the page a browser without it gets too.
// Pages with an id in their address take a real one from a list the role sees, as a person would
// follow it; a list with an "Edit" link is checked with the first row's edit form open too.
// Only reads: the one thing written is a complaint by a student of this sweep's own, so the help
// desk has a thread to open. The steps that ask before acting are
// every-staff-confirmation-fits-a-phone.spec.ts's.

const SEEDED_FEE = "CCE-20231009-4D7KQ2M9XW3P";
const RETURNING_MATRIC = "CCE/2023/BIO/0042";

/** The pages anyone reaches before signing in, and the ones the staff side answers with. */
const PUBLIC_STAFF_PAGES = [
  "/staff/login",
  "/staff/login?signed_out=1",
  "/staff/password/not-a-real-link",
];

const STRUCTURE = [
  "/staff/structure",
  "/staff/structure/faculties",
  "/staff/structure/departments",
  "/staff/structure/programmes",
  "/staff/structure/courses",
  "/staff/structure/mappings",
  "/staff/structure/modes",
];

/** The first link on the page whose address matches, as the page wrote it (a path or a query). */
async function firstHref(page: Page, selector: string) {
  const link = page.locator(selector).first();
  await expect(link, `a link ${selector} on ${page.url()}`).toBeAttached();
  return new URL((await link.getAttribute("href"))!, page.url()).href.replace(
    /^https?:\/\/[^/]+/,
    "",
  );
}

async function checkPage(page: Page, path: string) {
  await test.step(path, async () => {
    await page.goto(path);
    await expectPageFitsPhone(page, { soft: true });
  });
}

/** Each page, then the first row's edit form where the page offers one. */
async function checkEachPage(page: Page, paths: string[]) {
  for (const path of paths) {
    await checkPage(page, path);
    const edit = page.locator('main a[href*="edit="]');
    if (await edit.count()) await checkPage(page, await firstHref(page, 'main a[href*="edit="]'));
  }
}

test("the staff sign-in pages fit the phone", async ({ page, browser }) => {
  await checkEachPage(page, PUBLIC_STAFF_PAGES);
  // The second step of a sign-in with an authenticator: the bursar has one (set up elsewhere if
  // this runs first), so the password alone leads to the page asking for its code.
  const elsewhere = await browser.newContext({ baseURL: PORTAL_ORIGIN });
  await signInWithAuthenticator(await elsewhere.newPage(), "bursar@college.example");
  await elsewhere.close();
  await test.step("/staff/login/code", async () => {
    await staffSignIn(page, "bursar@college.example");
    await expect(page).toHaveURL(/\/staff\/login\/code/);
    await expectPageFitsPhone(page, { soft: true });
  });
});

test("every registry page fits the phone", async ({ page }) => {
  test.setTimeout(180_000);
  await staffSignIn(page, "registry@college.example");
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
  await checkEachPage(page, [
    "/staff",
    "/staff/students",
    `/staff/students?q=${encodeURIComponent(RETURNING_MATRIC)}`,
  ]);
  const student = await firstHref(page, 'main a[href^="/staff/students/"]:not([href$="/import"])');
  // Every status: the list of those waiting may be empty in a run of this file alone.
  await checkEachPage(page, [
    student,
    "/staff/students/import",
    "/staff/registrations",
    "/staff/registrations?status=all",
  ]);
  const registration = await firstHref(page, 'main a[href^="/staff/registrations/"]');
  await checkEachPage(page, [
    registration,
    ...STRUCTURE,
    "/staff/sessions",
    "/staff/course-lecturers",
    `/staff/course-lecturers?session=2023%2F2024&semester=1`,
  ]);
  const promotion = page.locator('main a[href^="/staff/sessions/promotion"]');
  const promotionPage = (await promotion.count())
    ? await firstHref(page, 'main a[href^="/staff/sessions/promotion"]')
    : "/staff/sessions/promotion";
  await checkEachPage(page, [
    promotionPage,
    "/staff/audit",
    `/staff/audit?q=${encodeURIComponent(RETURNING_MATRIC)}`,
    "/staff/totp",
    "/staff/fees",
  ]);
  // The page a role reaches by a wrong link: the fee schedule is the bursary's.
  await expect(page.getByRole("heading", { name: "Not part of your role" })).toBeVisible();
});

/**
 * How dark a strip at one edge of the box is on the screen, and how dark it is with the box's
 * shadows taken off: the difference is the shadow alone, whatever text lies under it.
 */
async function edgeShade(box: Locator, edge: "left" | "right") {
  const page = box.page();
  const row = (await box.locator("tbody tr").first().boundingBox())!;
  const frame = (await box.boundingBox())!;
  const clip = {
    x: edge === "left" ? frame.x : frame.x + frame.width - 4,
    y: row.y + 2,
    width: 4,
    height: row.height - 4,
  };
  const brightness = async () => {
    const { channels } = await sharp(await page.screenshot({ clip })).stats();
    return (channels[0]!.mean + channels[1]!.mean + channels[2]!.mean) / 3;
  };
  const shown = await brightness();
  await box.evaluate((element: HTMLElement) => (element.style.backgroundImage = "none"));
  const plain = await brightness();
  await box.evaluate((element: HTMLElement) => (element.style.backgroundImage = ""));
  return plain - shown;
}

test("a table wider than the phone scrolls in its own box and shows that there is more", async ({
  page,
}) => {
  await staffSignIn(page, "registry@college.example");
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
  await page.goto("/staff/structure/courses");
  const box = page.locator(".table-scroll").first();
  const [scrollWidth, clientWidth] = await box.evaluate((element) => [
    element.scrollWidth,
    element.clientWidth,
  ]);
  expect(scrollWidth, "the courses table is wider than its box on this phone").toBeGreaterThan(
    clientWidth + 20,
  );
  await expectNoSidewaysOverflow(page);
  // At the start: a shadow on the right, where the table goes on, and none on the left.
  expect(await edgeShade(box, "right")).toBeGreaterThan(8);
  expect(await edgeShade(box, "left")).toBeLessThan(2);
  // Swiped to the end: the shadow has moved to the left, where the table has gone.
  await box.evaluate((element) => (element.scrollLeft = element.scrollWidth));
  expect(await edgeShade(box, "right")).toBeLessThan(2);
  expect(await edgeShade(box, "left")).toBeGreaterThan(8);
});

test("every course adviser page fits the phone", async ({ page }) => {
  await staffSignIn(page, "adviser@college.example");
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
  // The list at any status holds the adviser's students whatever other journeys have submitted.
  await checkEachPage(page, ["/staff", "/staff/registrations", "/staff/registrations?status=all"]);
  const registration = await firstHref(page, 'main a[href^="/staff/registrations/"]');
  await checkEachPage(page, [registration, "/staff/totp"]);
});

test("every lecturer page fits the phone", async ({ page }) => {
  await staffSignIn(page, "lecturer@college.example");
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
  await checkEachPage(page, ["/staff", "/staff/teaching"]);
  // The open course's sheet (or, after the lecturer's journey, its submitted one) and a published one.
  const open = await firstHref(page, 'main tr:has-text("2024/2025") a[href^="/staff/teaching/"]');
  const published = await firstHref(
    page,
    'main tr:has-text("2023/2024") a[href^="/staff/teaching/"]',
  );
  await checkEachPage(page, [open, published]);
});

test("every bursary page fits the phone", async ({ page }) => {
  test.setTimeout(180_000);
  await signInWithAuthenticator(page, "bursar@college.example");
  await checkEachPage(page, [
    "/staff",
    "/staff/fees",
    // A fee's own page, with its split on Remita (the schedule's first fee).
    "/staff/fees/1",
    "/staff/payments",
    `/staff/payments?q=${encodeURIComponent(RETURNING_MATRIC)}`,
    `/staff/payments/${SEEDED_FEE}`,
    "/staff/reconciliation",
    // A span with the demo payments in it, so the report has rows.
    "/staff/reconciliation?from=2023-01-01&to=2026-12-31",
    "/staff/refunds",
    "/staff/sms",
    "/staff/sms/reminders",
    "/staff/totp",
  ]);
});

test("every help-desk page fits the phone", async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  // A student of this sweep's own sends a complaint with a long unbroken word, as people paste
  // links and references, so the inbox and the thread have something to wrap. One per phone size.
  const student = await freshStudent(browser, testInfo.project.name === "phone-390" ? 152 : 151);
  const context = await browser.newContext();
  const studentPage = await context.newPage();
  await signIn(studentPage, student, "/complaint");
  await expect(studentPage.locator("form[data-enhanced]")).toHaveCount(1);
  await studentPage
    .getByLabel("Subject")
    .fill("Receipt CCE-20231009-4D7KQ2M9XW3P-not-showing-on-my-dashboard");
  await studentPage
    .getByLabel("Message")
    .fill(
      "I paid at https://checkout.paystack.example/pay/abcdefghijklmnopqrstuvwxyz0123456789 and nothing shows.",
    );
  await studentPage.getByRole("button", { name: "Send Complaint" }).click();
  const sent = studentPage
    .getByRole("status")
    .filter({ hasText: "Successful! Complaint has been sent" });
  const ticket = /CMP-[A-Z2-9]{6}/.exec((await sent.textContent())!)![0];
  await context.close();

  await staffSignIn(page, "support@college.example");
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
  await checkEachPage(page, [
    "/staff",
    "/staff/complaints",
    `/staff/complaints/${ticket}`,
    "/staff/totp",
  ]);
});

test("every administrator page fits the phone", async ({ page }) => {
  test.setTimeout(180_000);
  await signInWithAuthenticator(page, "admin@college.example");
  await checkEachPage(page, [
    "/staff",
    "/staff/accounts",
    ...STRUCTURE,
    "/staff/sessions",
    "/staff/fees",
    "/staff/refunds",
    "/staff/sms",
    "/staff/sms/reminders",
    "/staff/announcements",
    "/staff/library",
    "/staff/audit",
    "/staff/totp",
  ]);
  // The Sign out button in the bar is what ends a shared phone's session: a thumb must reach it.
  await expectTapsReach(page.getByRole("button", { name: "Sign out" }), { soft: true });
});

test("every head of department and exams office page fits the phone", async ({ page }) => {
  test.setTimeout(180_000);
  await staffSignIn(page, "hod@college.example");
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
  // The demo's approved 2023/2024 results are on the head's list, so a course page has a chart.
  await checkEachPage(page, ["/staff/results/review"]);
  const course = await firstHref(page, 'main a[href^="/staff/results/review/"]');
  await checkEachPage(page, [course, "/staff/results/amendments"]);
  await page.getByRole("button", { name: "Sign out" }).click();

  await signInWithAuthenticator(page, "exams@college.example");
  await page.goto("/staff/results/computed");
  const programme = await page
    .getByLabel("Programme")
    .locator("option", { hasText: "NCE Biology/Chemistry" })
    .getAttribute("value");
  const semester = `programme_id=${programme}&session=2023%2F2024&semester=1`;
  await checkEachPage(page, [
    "/staff/results/overview?session=2023%2F2024&semester=1",
    `/staff/results/computed?${semester}`,
    `/staff/results/computed/print?${semester}`,
    "/staff/results/grading",
    "/staff/transcripts",
    "/staff/results/amendments",
  ]);
});
