/**
 * Disabling the focused submit button while a form sends drops focus to the page: keyboard and
 * screen-reader users lose their place. Call with the element that had focus once the button
 * works again; it is focused again only if nothing else took focus meanwhile.
 */
export function refocus(element: Element | null) {
  if (!(element instanceof HTMLElement) || !element.isConnected) return;
  if (document.activeElement === null || document.activeElement === document.body) element.focus();
}
