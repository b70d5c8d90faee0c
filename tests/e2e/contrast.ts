import type { Page } from "@playwright/test";

/**
 * Text on the page below WCAG AA contrast (4.5:1; 3:1 for large text and for characters drawn as
 * a picture inside role="img", such as rating stars), computed as axe does:
 * the text colour against its own and its ancestors' background colours, composited. Text over a
 * background image or gradient is skipped (as axe leaves it to a person), so is disabled or
 * visually hidden text.
 */
export function lowContrastText(page: Page) {
  return page.evaluate(() => {
    type Rgba = [number, number, number, number];
    const parse = (css: string): Rgba => {
      const [r = 0, g = 0, b = 0, a = 1] = (css.match(/[\d.]+/g) ?? []).map(Number);
      return [r, g, b, a];
    };
    const over = ([r, g, b, a]: Rgba, [R, G, B]: Rgba): Rgba => [
      r * a + R * (1 - a),
      g * a + G * (1 - a),
      b * a + B * (1 - a),
      1,
    ];
    const luminance = ([r, g, b]: Rgba) =>
      [r, g, b]
        .map((value) => value / 255)
        .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
        .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0);
    const ratio = (a: Rgba, b: Rgba) => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (light! + 0.05) / (dark! + 0.05);
    };
    /** The colour behind an element, or null when an image or gradient is part of it. */
    const backgroundOf = (element: Element): Rgba | null => {
      const layers: Rgba[] = [];
      for (let node: Element | null = element; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.backgroundImage !== "none") return null;
        const colour = parse(style.backgroundColor);
        if (colour[3] > 0) layers.push(colour);
        if (colour[3] === 1) break;
      }
      return layers.reduceRight<Rgba>((below, layer) => over(layer, below), [255, 255, 255, 1]);
    };
    const failures: { text: string; ratio: number; color: string; background: string }[] = [];
    for (const element of document.body.querySelectorAll("*")) {
      const text = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent!.trim())
        .join(" ")
        .trim();
      const box = element.getBoundingClientRect();
      if (
        !text ||
        box.width <= 1 ||
        box.height <= 1 ||
        !element.checkVisibility({ visibilityProperty: true })
      )
        continue;
      if (element.closest(":disabled, [aria-hidden='true']")) continue;
      const background = backgroundOf(element);
      if (!background) continue;
      const style = getComputedStyle(element);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const graphic = element.closest('[role="img"]') !== null;
      const found = ratio(over(parse(style.color), background), background);
      if (found < (large || graphic ? 3 : 4.5)) {
        failures.push({
          text,
          ratio: Math.round(found * 100) / 100,
          color: style.color,
          background: `rgb(${background.slice(0, 3).map(Math.round).join(", ")})`,
        });
      }
    }
    return failures;
  });
}
