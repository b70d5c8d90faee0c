/**
 * Turns a server-rendered list of sections into tabs (WAI-ARIA tabs pattern, automatic
 * activation): arrow keys move between tabs, Home and End go to the first and last, only the
 * selected tab is in the Tab order. Without scripts the tablist stays hidden and every section
 * shows with its own heading, so the content is readable either way.
 */
export function makeTabs(tablist: HTMLElement) {
  const tabs = [...tablist.querySelectorAll<HTMLElement>('[role="tab"]')];
  const panels = tabs.map((tab) => document.getElementById(tab.getAttribute("aria-controls")!)!);

  function select(index: number, focus: boolean) {
    tabs.forEach((tab, i) => {
      const selected = i === index;
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected ? 0 : -1;
      panels[i]!.hidden = !selected;
    });
    if (focus) tabs[index]!.focus();
  }

  panels.forEach((panel, i) => {
    panel.setAttribute("role", "tabpanel");
    panel.setAttribute("aria-labelledby", tabs[i]!.id);
    panel.tabIndex = 0;
    // The tab names the panel now; its heading would say the same thing twice.
    panel.querySelector("h1, h2, h3, h4")?.setAttribute("hidden", "");
  });
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => select(i, false));
    tab.addEventListener("keydown", (event) => {
      const last = tabs.length - 1;
      const targets: Record<string, number> = {
        ArrowRight: i === last ? 0 : i + 1,
        ArrowLeft: i === 0 ? last : i - 1,
        Home: 0,
        End: last,
      };
      const next = targets[event.key];
      if (next === undefined) return;
      event.preventDefault();
      select(next, true);
    });
  });
  select(0, false);
  tablist.hidden = false;
}
