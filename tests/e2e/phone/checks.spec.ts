import { expect, test, type Page } from "@playwright/test";
import {
  expectFirstScreenControlsReachable,
  expectInViewport,
  expectNoSidewaysOverflow,
  expectOpenPanelUsable,
  expectTapsReach,
  expectTapTargets,
  expectWhollyShown,
} from "./checks.ts";

// The phone checks on small pages made for them: each must pass a page that is right and fail,
// naming the element, a page that is wrong, or the sweep's green would prove nothing.

const show = (page: Page, body: string) =>
  page.setContent(`<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
    <style>body { margin: 0; font: 16px/1.5 sans-serif } button { width: 44px; height: 44px }</style></head>
    <body>${body}</body></html>`);

test("a page with a block wider than the phone fails the overflow check, naming the block", async ({
  page,
}) => {
  await show(
    page,
    `<main><p>Fits.</p><div class="fee-card" style="width: 600px">School fee</div></main>`,
  );
  await expect(expectNoSidewaysOverflow(page)).rejects.toThrow(
    /the page is 600 px wide[\s\S]*DIV\.fee-card “School fee” 600×24 at \d+,\d+ does not fit/,
  );

  // Cut off by a parent that hides overflow: the page does not scroll, but the text is lost.
  await show(
    page,
    `<main style="overflow: hidden"><table class="courses" style="width: 700px"><tr><td>ENG 111</td></tr></table></main>`,
  );
  await expect(expectNoSidewaysOverflow(page)).rejects.toThrow(
    /TABLE\.courses “ENG 111” 700×\d+ at 0,0 does not fit/,
  );

  // A wide table in a box that scrolls sideways on purpose is fine, as long as the box fits.
  await show(
    page,
    `<main><div style="overflow-x: auto"><table style="width: 700px"><tr><td>ENG 111</td></tr></table></div></main>`,
  );
  await expectNoSidewaysOverflow(page);
  await show(
    page,
    `<main><div style="overflow-x: auto; width: 500px"><table style="width: 700px"><tr><td>ENG 111</td></tr></table></div></main>`,
  );
  await expect(expectNoSidewaysOverflow(page)).rejects.toThrow(/DIV “ENG 111” 500×/);

  // So is a marquee or a corner ribbon that a clipping box cuts on purpose; but not plain text it cuts.
  await show(
    page,
    `<main><div style="overflow: hidden"><ul style="width: max-content; transform: translateX(-30%)"><li>Course registration closes on Friday, 31 January 2025, at midnight.</li></ul></div>
    <div style="overflow: hidden; position: relative; height: 60px"><span style="position: absolute; right: -40px; width: 120px; transform: rotate(45deg)">Free</span></div></main>`,
  );
  await expectNoSidewaysOverflow(page);
  await show(
    page,
    `<main><div style="overflow: hidden"><p class="cut" style="width: 700px">Course registration closes on Friday.</p></div></main>`,
  );
  await expect(expectNoSidewaysOverflow(page)).rejects.toThrow(
    /P\.cut “Course registration closes on Friday\.” 700×/,
  );
});

test("a control under a toast fails the reachability check, naming both", async ({ page }) => {
  const topBar = `<header style="display: flex; justify-content: flex-end"><button>Appearance</button><button aria-label="Profile">P</button></header>`;
  await show(
    page,
    `${topBar}<div role="status" class="toast" style="position: fixed; top: 0; right: 0; width: 70%; height: 56px; background: #fff">Login successful</div>`,
  );
  await expect(expectFirstScreenControlsReachable(page)).rejects.toThrow(
    /BUTTON “Profile” 44×44 at \d+,0 is covered by DIV\.toast “Login successful”/,
  );

  // The same toast at the foot of the screen covers nothing; a control below the first screen is not asked about.
  await show(
    page,
    `${topBar}<div role="status" style="position: fixed; bottom: 0; width: 100%; height: 56px; background: #fff">Login successful</div>
    <button style="margin-top: 2000px">Far below</button>`,
  );
  await expectFirstScreenControlsReachable(page);

  // A link that wraps onto a second line is aimed at where its words are; a skip link parked
  // off the page until it is focused is not on the screen.
  await show(
    page,
    `<a class="skip" href="#main" style="position: absolute; left: -999px">Skip to content</a>
    <p style="width: 200px">Remembered your password? <a href="/login">Sign in here to go on</a></p>`,
  );
  await expectFirstScreenControlsReachable(page);
  await expectTapTargets(page);

  // A tick box hidden under its own big label is reached through the label.
  await show(
    page,
    `<label style="display: block; padding: 12px"><input type="checkbox" style="opacity: 0; position: absolute"> ENG 111</label>`,
  );
  await expectFirstScreenControlsReachable(page);
});

test("small controls fail the tap-target check, while links in a sentence and big tick-box labels pass", async ({
  page,
}) => {
  await show(
    page,
    `<nav><a href="/biodata">Biodata</a></nav><button style="width: 32px; height: 32px">×</button>`,
  );
  const small = expectTapTargets(page);
  await expect(small).rejects.toThrow(/A “Biodata” \d+×17 at \d+,\d+ is smaller than 40×40/);
  await expect(small).rejects.toThrow(/BUTTON “×” 32×32 at \d+,\d+ is smaller than 40×40/);

  await show(
    page,
    `<table><tr><td><input type="checkbox" id="eng111"></td><td><label for="eng111">ENG 111</label></td></tr></table>`,
  );
  await expect(expectTapTargets(page)).rejects.toThrow(
    /INPUT#eng111\[type=checkbox\] “” 13×13 .* smaller than 40×40; its label is LABEL “ENG 111” \d+×\d+/,
  );
  await show(page, `<input type="checkbox" aria-label="ENG 111">`);
  await expect(expectTapTargets(page)).rejects.toThrow(
    /“ENG 111” 13×13 .* it has no label that ticks it/,
  );

  await show(
    page,
    `<p>Forgot your password? <a href="/reset-password">Reset it here</a> in a minute.</p>
    <ul><li>Read the <a href="/library">library</a> page.</li></ul>
    <label style="display: flex; align-items: center; min-height: 44px"><input type="checkbox"> ENG 111</label>
    <button>OK</button>`,
  );
  await expectTapTargets(page);
});

test("given a locator, the tap-target check measures what it finds and the controls inside", async ({
  page,
}) => {
  await show(
    page,
    `<div class="toast" role="status">Saved <button class="close" style="width: 24px; height: 24px" aria-label="Dismiss">×</button></div>
    <nav aria-label="Breadcrumb"><a href="/">Dashboard</a></nav><button style="width: 20px">Far</button>`,
  );
  await expect(expectTapTargets(page.getByRole("button", { name: "Dismiss" }))).rejects.toThrow(
    /BUTTON\.close “Dismiss” 24×24 at \d+,\d+ is smaller than 40×40/,
  );
  const inBreadcrumb = expectTapTargets(page.getByRole("navigation", { name: "Breadcrumb" }));
  await expect(inBreadcrumb).rejects.toThrow(/A “Dashboard” \d+×\d+ at \d+,\d+ is smaller/);
  await expect(inBreadcrumb).rejects.not.toThrow(/Far/);
  // A locator that finds nothing proves nothing: the footer a journey names must be there.
  await expect(expectTapTargets(page.getByRole("contentinfo"), { timeout: 1_000 })).rejects.toThrow(
    /finds something to measure/,
  );

  await show(page, `<div role="status">Saved <button aria-label="Dismiss">×</button></div>`);
  await expectTapTargets(page.getByRole("status"));
  await expectTapTargets(page.getByRole("button", { name: "Dismiss" }));
});

test("a tap must land on each control a journey names, wherever on the page it is", async ({
  page,
}) => {
  const topBar = `<header style="display: flex; justify-content: flex-end"><button>Appearance</button><button aria-label="Profile">P</button></header>`;
  await show(
    page,
    `${topBar}<div class="toast" style="position: fixed; top: 0; right: 0; width: 70%; height: 56px; background: #fff">Login successful</div>`,
  );
  await expect(expectTapsReach(page.getByRole("button", { name: "Profile" }))).rejects.toThrow(
    /BUTTON “Profile” 44×44 at \d+,0 is covered by DIV\.toast “Login successful”/,
  );

  // Far below the first screen: scrolled to, and still under a backdrop that covers the screen.
  const far = `<div style="height: 2000px"></div><select aria-label="Level"><option>100</option></select><div style="height: 2000px"></div>`;
  await show(
    page,
    `${far}<div class="backdrop" style="position: fixed; inset: 0; background: #fff8">Choose a session</div>`,
  );
  await expect(expectTapsReach(page.getByRole("combobox", { name: "Level" }))).rejects.toThrow(
    /SELECT “Level” .* is covered by DIV\.backdrop “Choose a session”/,
  );
  await show(page, far);
  await expectTapsReach(page.getByRole("combobox", { name: "Level" }));

  await show(page, `<button style="visibility: hidden">Menu</button>`);
  await expect(expectTapsReach(page.locator("button"))).rejects.toThrow(
    /BUTTON “Menu” .* is not shown/,
  );
  await expect(expectTapsReach(page.locator("select"), { timeout: 1_000 })).rejects.toThrow(
    /finds a control/,
  );
});

test("a unit or status cut off by its box, or wider than it, fails the wholly-shown check", async ({
  page,
}) => {
  // The page-wide check lets the wrapper scroll; the student would have to scroll it to see the units.
  await show(
    page,
    `<main><div class="table-wrap" style="overflow-x: auto; width: 200px"><table style="width: 300px"><tr>
    <td style="width: 230px">General Biology I</td><td class="units">3</td></tr></table></div></main>`,
  );
  await expectNoSidewaysOverflow(page);
  await expect(expectWhollyShown(page.locator(".units"))).rejects.toThrow(
    /TD\.units “3” \d+×\d+ at \d+,\d+ is cut off by DIV\.table-wrap/,
  );

  await show(
    page,
    `<main><span class="status" style="display: inline-block; width: 40px; overflow: hidden; white-space: nowrap">Not used — no money taken</span>
    <p class="far" style="margin-left: 400px; width: 100px">Success</p></main>`,
  );
  await expect(expectWhollyShown(page.locator(".status"))).rejects.toThrow(
    /SPAN\.status “Not used — no money taken” 40×\d+ at \d+,\d+ holds \d+ px of content in 40 px/,
  );
  await expect(expectWhollyShown(page.locator(".far"))).rejects.toThrow(
    /P\.far “Success” 100×\d+ .* does not fit the 360 px screen/,
  );

  await show(
    page,
    `<main><div style="overflow-x: auto"><p class="units" style="margin: 0">Units 3</p></div><p class="status">Success</p></main>`,
  );
  await expectWhollyShown(page.locator(".units"));
  await expectWhollyShown(page.locator(".status"));
});

test("an open menu is checked for its own controls, not for the page it covers", async ({
  page,
}) => {
  const menu = (link: string) =>
    show(
      page,
      `<main><button>Pay</button><a href="/complaint" style="display: block; padding: 12px">Complaint</a></main>
      <aside aria-label="Main menu" popover style="margin: 0; inset: 0 auto 0 0; width: 70%">${link}<a href="/payment" style="display: block; padding: 12px">Payments</a>
        <div style="max-height: 100px; overflow-y: auto"><a href="/library" style="display: block; padding: 12px; margin-top: 200px">Library</a></div></aside>`,
    );
  await menu(`<a href="/biodata">Biodata</a>`);
  await page.locator("aside").evaluate((aside: HTMLElement) => aside.showPopover());
  await expect(
    expectOpenPanelUsable(page.getByRole("complementary", { name: "Main menu" })),
  ).rejects.toThrow(/A “Biodata” \d+×\d+ at \d+,\d+ is smaller than 40×40/);
  await menu(`<a href="/biodata" style="display: block; padding: 12px">Biodata</a>`);
  await page.locator("aside").evaluate((aside: HTMLElement) => aside.showPopover());
  await expectOpenPanelUsable(page.getByRole("complementary", { name: "Main menu" }));
});

test("an outcome message below the screen or under something fails the in-view check", async ({
  page,
}) => {
  await show(
    page,
    `<div style="height: 2000px"></div><p role="status">Your courses have been registered.</p>`,
  );
  await expect(expectInViewport(page.getByRole("status"), { timeout: 1_000 })).rejects.toThrow(
    /outside the \d+×\d+ screen/,
  );

  await show(
    page,
    `<p role="status" style="margin: 0">Your courses have been registered.</p>
    <div style="position: fixed; top: 0; left: 0; width: 100%; height: 40px; background: #fff">Top bar</div>`,
  );
  await expect(expectInViewport(page.getByRole("status"), { timeout: 1_000 })).rejects.toThrow(
    /covered by DIV “Top bar”/,
  );

  await show(page, `<p role="status">Your courses have been registered.</p>`);
  await expectInViewport(page.getByRole("status"));

  // A message in bold over two lines is aimed at where its words are, not at the gap between them.
  await show(
    page,
    `<p style="width: 200px"><strong class="outcome">We could not confirm this payment yet.</strong></p>`,
  );
  await expectInViewport(page.locator(".outcome"));

  // A toast that lets taps through to what lies under it (decision 149) is still on top.
  await show(
    page,
    `<button style="width: 100%; height: 200px">Pay</button>
    <div style="position: fixed; top: 0; right: 0; pointer-events: none"><p role="status" style="margin: 0; background: #fff">Login successful</p></div>`,
  );
  await expectInViewport(page.getByRole("status"));
});
