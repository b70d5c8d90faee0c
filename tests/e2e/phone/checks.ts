import { expect, type Locator, type Page } from "@playwright/test";

/**
 * What a page must be on a cheap phone (issue 29), as assertions any journey can run. Each failure
 * names the offending elements (BUTTON.toggle “Profile” 32×32 at 300,4) so the message alone
 * says what to fix. With `soft`, a failure is recorded and the journey goes on to its next page.
 * The rules, and what each one exempts, are decision 148.
 */

type Options = { soft?: boolean };

/** What a thumb can press or type into. */
const CONTROLS =
  "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=tab], [role=switch], [role=checkbox], [role=radio], [role=menuitem]";

/** WCAG 2.5.8's size, and the issue's: "at least 40 × 40 px or has a label that toggles it". */
const MIN_TARGET = 40;

type Inspection = "overflow" | "reachable" | "targets";

/**
 * Runs in the page: the offending elements under `root` for one inspection, described. One
 * function, so the helpers every inspection shares travel to the browser with it (evaluate sends
 * source text).
 */
function offendersIn(root: Element, { inspection, controls, minTarget }: { inspection: Inspection; controls: string; minTarget: number }) {
  const viewportWidth = document.documentElement.clientWidth;
  const viewportHeight = window.innerHeight;
  const round = (n: number) => Math.round(n);
  const describe = (el: Element) => {
    const rect = el.getBoundingClientRect();
    const name =
      el.getAttribute("aria-label") ??
      (el instanceof HTMLInputElement && !["checkbox", "radio"].includes(el.type) ? el.value || el.placeholder || el.name : null) ??
      el.textContent ??
      "";
    const text = name.replace(/\s+/g, " ").trim().slice(0, 50);
    const classes = [...el.classList].slice(0, 2).map((c) => `.${c}`).join("");
    const type = el instanceof HTMLInputElement ? `[type=${el.type}]` : "";
    return `${el.tagName}${el.id ? `#${el.id}` : ""}${classes}${type} “${text}” ${round(rect.width)}×${round(rect.height)} at ${round(rect.left)},${round(rect.top)}`;
  };
  // Shown to the eye: rendered, not transparent, not the 1 px "visually hidden" pattern, and not
  // parked beyond the page's left or top edge where no scrolling reaches (a skip link until focused).
  const visible = (el: Element) => {
    const rect = el.getBoundingClientRect();
    return (
      el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) &&
      rect.width > 1 &&
      rect.height > 1 &&
      rect.right + window.scrollX > 0 &&
      rect.bottom + window.scrollY > 0
    );
  };
  const scrolls = (el: Element) => {
    const { overflowX, overflowY } = getComputedStyle(el);
    return el !== document.body && el !== document.documentElement && [overflowX, overflowY].some((overflow) => overflow === "auto" || overflow === "scroll");
  };
  const scrollingAncestor = (el: Element) => {
    for (let up = el.parentElement; up; up = up.parentElement) if (scrolls(up)) return up;
    return null;
  };
  // Where a thumb aims: a link wrapped over two lines is aimed at its bigger piece, not at the
  // middle of the box around both, which is the sentence's other text.
  const aimedAt = (el: Element) => {
    const pieces = [...el.getClientRects()];
    return pieces.length > 1 ? pieces.reduce((big, piece) => (piece.width * piece.height > big.width * big.height ? piece : big)) : el.getBoundingClientRect();
  };

  if (inspection === "overflow") {
    const offenders: string[] = [];
    const pageWidth = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    if (pageWidth > viewportWidth) offenders.push(`the page is ${pageWidth} px wide in a ${viewportWidth} px screen`);
    const content = document.querySelector("main") ?? document.body;
    // Wide on purpose, inside a box within the content that is then the one that must fit: a box
    // that scrolls sideways (a wide table's wrapper, the library carousel), or one that clips
    // something a transform moves or turns (the newsfeed marquee, a corner ribbon). Content that
    // is merely cut off by a clipping box is not exempt: the student could not read it.
    const wideOnPurpose = (el: Element) => {
      let transformed = false;
      for (let up = el; up.parentElement && up.parentElement !== content; up = up.parentElement) {
        if (getComputedStyle(up).transform !== "none") transformed = true;
        const overflow = getComputedStyle(up.parentElement).overflowX;
        if (overflow === "auto" || overflow === "scroll") return true;
        if (transformed && (overflow === "hidden" || overflow === "clip")) return true;
      }
      return false;
    };
    // Content that does not fit, outermost only: its children would only repeat it.
    const tooWide = new Set<Element>();
    for (const el of content.querySelectorAll("*")) {
      const rect = el.getBoundingClientRect();
      if (!el.checkVisibility({ visibilityProperty: true }) || rect.width <= 1 || rect.height <= 1) continue;
      if (wideOnPurpose(el)) continue;
      if (rect.left >= -0.5 && rect.right <= viewportWidth + 0.5) continue;
      tooWide.add(el);
      if ([...tooWide].some((wide) => wide !== el && wide.contains(el))) continue;
      offenders.push(`${describe(el)} does not fit the ${viewportWidth} px screen`);
    }
    return offenders;
  }

  const all = [...root.querySelectorAll(controls)];

  if (inspection === "reachable") {
    window.scrollTo({ top: 0, left: 0, behavior: "instant" });
    const offenders: string[] = [];
    for (const control of all) {
      if (!visible(control)) continue;
      const rect = aimedAt(control);
      const x = rect.left + rect.width / 2;
      const y = rect.top + rect.height / 2;
      if (x < 0 || x >= viewportWidth || y < 0 || y >= viewportHeight) continue;
      // Scrolled out of sight inside a box that scrolls (a wide table, a long panel): the student
      // scrolls it to reach it.
      const scroller = scrollingAncestor(control)?.getBoundingClientRect();
      if (scroller && (x < scroller.left || x > scroller.right || y < scroller.top || y > scroller.bottom)) continue;
      const hit = document.elementFromPoint(x, y);
      const labels = "labels" in control ? [...((control as HTMLInputElement).labels ?? [])] : [];
      if (hit && (control.contains(hit) || labels.some((label) => label.contains(hit)))) continue;
      offenders.push(`${describe(control)} is covered by ${hit ? describe(hit) : "nothing the page draws"}`);
    }
    return offenders;
  }

  // Exempt from the size rule, as WCAG 2.5.8 exempts targets "in a sentence": a link laid out
  // inline within a paragraph or list item that has text of its own besides its links' text.
  const inRunningText = (control: Element) => {
    if (control.tagName !== "A" || getComputedStyle(control).display !== "inline") return false;
    const block = control.closest("p, li");
    if (!block) return false;
    let ownText = block.textContent ?? "";
    for (const link of block.querySelectorAll("a")) ownText = ownText.replace(link.textContent ?? "", "");
    return /[\p{L}\p{N}]/u.test(ownText);
  };
  const bigEnough = (el: Element) => {
    const rect = el.getBoundingClientRect();
    return rect.width >= minTarget - 0.01 && rect.height >= minTarget - 0.01;
  };
  const offenders: string[] = [];
  for (const control of all) {
    const tickable = control instanceof HTMLInputElement && ["checkbox", "radio"].includes(control.type);
    const labels = tickable ? [...(control.labels ?? [])].filter(visible) : [];
    if (!visible(control) && labels.length === 0) continue;
    if (inRunningText(control)) continue;
    if (visible(control) && bigEnough(control)) continue;
    // A tick box may be small when a label the thumb can hit ticks it (a label toggles its control).
    if (labels.some(bigEnough)) continue;
    const label = labels.length ? `; its label is ${describe(labels[0]!)}` : tickable ? "; it has no label that ticks it" : "";
    offenders.push(`${describe(control)} is smaller than ${minTarget}×${minTarget}${label}`);
  }
  return offenders;
}

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
  assertion(options)(await offenders(page, "overflow"), `${where(page)}: content wider than the screen`).toEqual([]);
}

/**
 * From the top of the page, every control whose centre is on the first screen can be pressed
 * there: the element at that point is the control, inside it, or its label (nothing lies on top).
 */
export async function expectFirstScreenControlsReachable(page: Page, options: Options = {}) {
  assertion(options)(await offenders(page, "reachable"), `${where(page)}: controls covered on the first screen`).toEqual([]);
}

/**
 * Every visible control is at least 40 × 40 CSS px, or is a checkbox or radio button with a
 * label at least that big which toggles it. Exempt: links inside running text (see above).
 */
export async function expectTapTargets(page: Page, options: Options = {}) {
  assertion(options)(await offenders(page, "targets"), `${where(page)}: controls too small for a thumb`).toEqual([]);
}

/**
 * An open menu, panel or dialog: its own controls reachable and big enough. The page under it is
 * covered on purpose, so only what is inside counts.
 */
export async function expectOpenPanelUsable(panel: Locator, options: Options = {}) {
  const page = panel.page();
  const name = `${where(page)}, ${await panel.evaluate((el) => el.getAttribute("aria-label") ?? el.id)} open`;
  assertion(options)(await offenders(page, "reachable", panel), `${name}: controls covered on the first screen`).toEqual([]);
  assertion(options)(await offenders(page, "targets", panel), `${name}: controls too small for a thumb`).toEqual([]);
}

/** The three checks every page gets. */
export async function expectPageFitsPhone(page: Page, options: Options = {}) {
  await expectNoSidewaysOverflow(page, options);
  await expectFirstScreenControlsReachable(page, options);
  await expectTapTargets(page, options);
}

/**
 * An outcome message the student must see where they are: wholly inside the screen and not under
 * anything else (the element at its centre is the message or inside it).
 */
export async function expectInViewport(message: Locator, options: Options & { timeout?: number } = {}) {
  await expect(message).toBeVisible();
  await assertion(options)
    .poll(
      () =>
        message.evaluate((el) => {
          const rect = el.getBoundingClientRect();
          const width = document.documentElement.clientWidth;
          const height = window.innerHeight;
          const where = `${Math.round(rect.width)}×${Math.round(rect.height)} at ${Math.round(rect.left)},${Math.round(rect.top)}`;
          if (rect.left < -0.5 || rect.top < -0.5 || rect.right > width + 0.5 || rect.bottom > height + 0.5) {
            return `outside the ${width}×${height} screen: ${where}`;
          }
          const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
          if (hit && !el.contains(hit)) return `covered by ${hit.tagName} “${(hit.textContent ?? "").trim().slice(0, 50)}”: ${where}`;
          return "in view";
        }),
      { message: `the outcome message “${(await message.textContent())?.trim().slice(0, 60)}” wholly on screen`, timeout: options.timeout },
    )
    .toBe("in view");
}
