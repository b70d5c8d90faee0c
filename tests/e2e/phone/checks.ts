import { expect, type Locator, type Page } from "@playwright/test";
import { CONTROLS, MIN_TARGET, offendersIn, type Inspection } from "./inspect-page.ts";

/**
 * What a page must be on a cheap phone (issue 29), as assertions any journey can run. Each failure
 * names the offending elements (BUTTON.toggle “Profile” 32×32 at 300,4) so the message alone
 * says what to fix. With `soft`, a failure is recorded and the journey goes on to its next page.
 * The rules, and what each one exempts, are decision 148.
 */

type Options = { soft?: boolean };
/** For a check that waits for its element: how long, when not the configured expect timeout. */
type WaitingOptions = Options & { timeout?: number };

function offenders(page: Page, inspection: Inspection, within = page.locator(":root")) {
  return within.evaluate(offendersIn, { inspection, controls: CONTROLS, minTarget: MIN_TARGET });
}

/** The page's address without its origin, query included: /course-reg has several states. */
function where(page: Page) {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

function assertion(options: Options) {
  return options.soft ? expect.soft : expect;
}

/**
 * Nothing scrolls sideways: the document is no wider than the screen, and every element in the
 * main content fits across it, unless it sits in a box that scrolls sideways on purpose
 * (overflow-x: auto or scroll, such as a wide table's wrapper or the library carousel), which
 * is then the element that must fit.
 */
export async function expectNoSidewaysOverflow(page: Page, options: Options = {}) {
  assertion(options)(
    await offenders(page, "overflow"),
    `${where(page)}: content wider than the screen`,
  ).toEqual([]);
}

/**
 * From the top of the page, every control whose centre is on the first screen can be pressed
 * there: the element at that point is the control, inside it, or its label (nothing lies on top).
 */
export async function expectFirstScreenControlsReachable(page: Page, options: Options = {}) {
  assertion(options)(
    await offenders(page, "reachable"),
    `${where(page)}: controls covered on the first screen`,
  ).toEqual([]);
}

/**
 * Every visible control is at least 40 × 40 CSS px, or is a checkbox or radio button with a
 * label at least that big which toggles it. Exempt: links inside running text (see above).
 * Given a locator rather than the page: each element it finds (there must be one), and the
 * controls inside them, such as a toast's close button or the breadcrumb.
 */
export async function expectTapTargets(scope: Page | Locator, options: WaitingOptions = {}) {
  if (!("page" in scope)) {
    assertion(options)(
      await offenders(scope, "targets"),
      `${where(scope)}: controls too small for a thumb`,
    ).toEqual([]);
    return;
  }
  await assertion(options)(scope.first(), `${scope} finds something to measure`).toBeAttached({
    timeout: options.timeout,
  });
  const found = await scope.all();
  const small = [];
  for (const element of found) small.push(...(await offenders(scope.page(), "targets", element)));
  assertion(options)(small, `${where(scope.page())}: controls too small for a thumb`).toEqual([]);
}

/**
 * A tap lands on each control the locator finds (there must be one), wherever it is on the page:
 * scrolled into view, the element at its centre is the control, inside it, or its label. For
 * the controls a journey names, such as the top bar's under a toast; every control of the first
 * screen is expectFirstScreenControlsReachable's.
 */
export async function expectTapsReach(controls: Locator, options: WaitingOptions = {}) {
  await assertion(options)(controls.first(), `${controls} finds a control`).toBeAttached({
    timeout: options.timeout,
  });
  for (const control of await controls.all()) {
    // Playwright would wait for a hidden control to show; the inspection says it is not shown.
    if (await control.isVisible()) await control.scrollIntoViewIfNeeded();
    assertion(options)(
      await offenders(control.page(), "tap-lands", control),
      `${where(control.page())}: a tap does not land on the control`,
    ).toEqual([]);
  }
}

/**
 * The element is seen whole without swiping sideways (it may be further down): inside the
 * screen's width, its content not wider than itself, and not cut off by a box around it, even
 * one that scrolls sideways on purpose. What a student must read or press in a table or a card
 * (a course's units, a payment's status and Print link), where the page-wide overflow check lets
 * a scrolling box hide part of a wide table.
 */
export async function expectWhollyShown(element: Locator, options: Options = {}) {
  assertion(options)(
    await offenders(element.page(), "shown-whole", element),
    `${where(element.page())}: not shown whole across the screen`,
  ).toEqual([]);
}

/**
 * An open menu, panel or dialog: its own controls reachable and big enough. The page under it is
 * covered on purpose, so only what is inside counts.
 */
export async function expectOpenPanelUsable(panel: Locator, options: Options = {}) {
  const page = panel.page();
  const name = `${where(page)}, ${await panel.evaluate((el) => el.getAttribute("aria-label") ?? el.id)} open`;
  assertion(options)(
    await offenders(page, "reachable", panel),
    `${name}: controls covered on the first screen`,
  ).toEqual([]);
  assertion(options)(
    await offenders(page, "targets", panel),
    `${name}: controls too small for a thumb`,
  ).toEqual([]);
}

/** The three checks every page gets. */
export async function expectPageFitsPhone(page: Page, options: Options = {}) {
  await expectNoSidewaysOverflow(page, options);
  await expectFirstScreenControlsReachable(page, options);
  await expectTapTargets(page, options);
}

/**
 * An outcome message the student must see where they are: wholly inside the screen and not under
 * anything else (the element at its centre is the message or inside it; for a message wrapped over
 * two lines, the centre of its bigger line).
 */
export async function expectInViewport(message: Locator, options: WaitingOptions = {}) {
  await expect(message).toBeVisible();
  await assertion(options)
    .poll(() => offenders(message.page(), "in-view", message), {
      message: `the outcome message “${(await message.textContent())?.trim().slice(0, 60)}” wholly on screen`,
      timeout: options.timeout,
    })
    .toEqual([]);
}
