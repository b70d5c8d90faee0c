// The inspections behind the phone checks (checks.ts), run inside the page. Decision 148 says
// what each one holds a page to and what it exempts.

/** What a thumb can press or type into. */
export const CONTROLS =
  "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=tab], [role=switch], [role=checkbox], [role=radio], [role=menuitem]";

/** WCAG 2.5.8's size, and the issue's: "at least 40 × 40 px or has a label that toggles it". */
export const MIN_TARGET = 40;

/**
 * What to inspect. Page-wide, or within a panel `root`: "overflow", the first screen's controls
 * "reachable", tap "targets" (`root` itself too if it is a control). Of `root` alone, where the
 * page now shows it: "tap-lands" on it, it is "shown-whole" across the screen, it is "in-view".
 */
export type Inspection =
  "overflow" | "reachable" | "targets" | "tap-lands" | "shown-whole" | "in-view";

/**
 * Runs in the page: the offending elements for one inspection, described. One function, so the
 * helpers every inspection shares travel to the browser with it (evaluate sends source text).
 */
export function offendersIn(
  root: Element,
  {
    inspection,
    controls,
    minTarget,
  }: { inspection: Inspection; controls: string; minTarget: number },
) {
  const viewportWidth = document.documentElement.clientWidth;
  const viewportHeight = window.innerHeight;
  const round = (n: number) => Math.round(n);
  const describe = (el: Element) => {
    const rect = el.getBoundingClientRect();
    const name =
      el.getAttribute("aria-label") ??
      (el instanceof HTMLInputElement && !["checkbox", "radio"].includes(el.type)
        ? el.value || el.placeholder || el.name
        : null) ??
      el.textContent ??
      "";
    const text = name.replace(/\s+/g, " ").trim().slice(0, 50);
    const classes = [...el.classList]
      .slice(0, 2)
      .map((c) => `.${c}`)
      .join("");
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
    return (
      el !== document.body &&
      el !== document.documentElement &&
      [overflowX, overflowY].some((overflow) => overflow === "auto" || overflow === "scroll")
    );
  };
  const scrollingAncestor = (el: Element) => {
    for (let up = el.parentElement; up; up = up.parentElement) if (scrolls(up)) return up;
    return null;
  };
  // Where a thumb aims: a link wrapped over two lines is aimed at its bigger piece, not at the
  // middle of the box around both, which is the sentence's other text.
  const aimedAt = (el: Element) => {
    const pieces = [...el.getClientRects()];
    return pieces.length > 1
      ? pieces.reduce((big, piece) =>
          piece.width * piece.height > big.width * big.height ? piece : big,
        )
      : el.getBoundingClientRect();
  };

  if (inspection === "in-view") {
    const rect = root.getBoundingClientRect();
    if (
      rect.left < -0.5 ||
      rect.top < -0.5 ||
      rect.right > viewportWidth + 0.5 ||
      rect.bottom > viewportHeight + 0.5
    )
      return [`${describe(root)} is outside the ${viewportWidth}×${viewportHeight} screen`];
    // A toast that lets taps through to the page (decision 149) is asked as if it took them:
    // what lies under it is not on top of it.
    const { style } = root as HTMLElement;
    const own = [
      style.getPropertyValue("pointer-events"),
      style.getPropertyPriority("pointer-events"),
    ];
    style.setProperty("pointer-events", "auto", "important");
    const aim = aimedAt(root);
    const hit = document.elementFromPoint(aim.left + aim.width / 2, aim.top + aim.height / 2);
    style.setProperty("pointer-events", own[0]!, own[1]);
    return hit && !root.contains(hit) ? [`${describe(root)} is covered by ${describe(hit)}`] : [];
  }

  if (inspection === "overflow") {
    const offenders: string[] = [];
    const pageWidth = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    if (pageWidth > viewportWidth)
      offenders.push(`the page is ${pageWidth} px wide in a ${viewportWidth} px screen`);
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
      if (!el.checkVisibility({ visibilityProperty: true }) || rect.width <= 1 || rect.height <= 1)
        continue;
      if (wideOnPurpose(el)) continue;
      if (rect.left >= -0.5 && rect.right <= viewportWidth + 0.5) continue;
      tooWide.add(el);
      if ([...tooWide].some((wide) => wide !== el && wide.contains(el))) continue;
      offenders.push(`${describe(el)} does not fit the ${viewportWidth} px screen`);
    }
    return offenders;
  }

  if (inspection === "shown-whole") {
    const rect = root.getBoundingClientRect();
    if (!visible(root)) return [`${describe(root)} is not shown`];
    if (rect.left < -0.5 || rect.right > viewportWidth + 0.5)
      return [`${describe(root)} does not fit the ${viewportWidth} px screen`];
    if (root.scrollWidth > root.clientWidth + 1)
      return [
        `${describe(root)} holds ${root.scrollWidth} px of content in ${root.clientWidth} px`,
      ];
    // A box around it that scrolls or clips sideways must show all of it: content a student has
    // to scroll a box sideways to find is not shown whole.
    for (let frame = root.parentElement; frame; frame = frame.parentElement) {
      if (getComputedStyle(frame).overflowX === "visible") continue;
      const edges = frame.getBoundingClientRect();
      if (rect.left < edges.left - 0.5 || rect.right > edges.right + 0.5)
        return [`${describe(root)} is cut off by ${describe(frame)}`];
    }
    return [];
  }

  const all = [...(root.matches(controls) ? [root] : []), ...root.querySelectorAll(controls)];

  if (inspection === "reachable" || inspection === "tap-lands") {
    // The first screen's controls, from the top of the page; or the one control, where it is.
    const firstScreen = inspection === "reachable";
    if (firstScreen) window.scrollTo({ top: 0, left: 0, behavior: "instant" });
    const offenders: string[] = [];
    for (const control of firstScreen ? all : [root]) {
      if (!visible(control)) {
        if (!firstScreen) offenders.push(`${describe(control)} is not shown`);
        continue;
      }
      const rect = aimedAt(control);
      const x = rect.left + rect.width / 2;
      const y = rect.top + rect.height / 2;
      // Hit-testing stops short of the screen's last pixel: a centre in it (a row cut by the fold
      // at 715.6 + 24 of 740) finds nothing there, and is below the first screen in any case.
      if (x < 0 || x > viewportWidth - 1 || y < 0 || y > viewportHeight - 1) {
        if (!firstScreen) offenders.push(`${describe(control)} is off the screen`);
        continue;
      }
      // Scrolled out of sight inside a box that scrolls (a wide table, a long panel): the student
      // scrolls it to reach it.
      const scroller = scrollingAncestor(control)?.getBoundingClientRect();
      if (
        firstScreen &&
        scroller &&
        (x < scroller.left || x > scroller.right || y < scroller.top || y > scroller.bottom)
      )
        continue;
      const hit = document.elementFromPoint(x, y);
      const labels = "labels" in control ? [...((control as HTMLInputElement).labels ?? [])] : [];
      if (hit && (control.contains(hit) || labels.some((label) => label.contains(hit)))) continue;
      offenders.push(
        `${describe(control)} is covered by ${hit ? describe(hit) : "nothing the page draws"}`,
      );
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
    for (const link of block.querySelectorAll("a"))
      ownText = ownText.replace(link.textContent ?? "", "");
    return /[\p{L}\p{N}]/u.test(ownText);
  };
  const bigEnough = (el: Element) => {
    const rect = el.getBoundingClientRect();
    return rect.width >= minTarget - 0.01 && rect.height >= minTarget - 0.01;
  };
  const offenders: string[] = [];
  for (const control of all) {
    const tickable =
      control instanceof HTMLInputElement && ["checkbox", "radio"].includes(control.type);
    const labels = tickable ? [...(control.labels ?? [])].filter(visible) : [];
    if (!visible(control) && labels.length === 0) continue;
    if (inRunningText(control)) continue;
    if (visible(control) && bigEnough(control)) continue;
    // A tick box may be small when a label the thumb can hit ticks it (a label toggles its control).
    if (labels.some(bigEnough)) continue;
    const label = labels.length
      ? `; its label is ${describe(labels[0]!)}`
      : tickable
        ? "; it has no label that ticks it"
        : "";
    offenders.push(`${describe(control)} is smaller than ${minTarget}×${minTarget}${label}`);
  }
  return offenders;
}
