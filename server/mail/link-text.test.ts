import { html } from "hono/html";
import { describe, expect, it } from "vitest";
import { linkText } from "./link-text.ts";

async function render(text: string): Promise<string> {
  return (await html`${linkText(text)}`).toString();
}

describe("linkText", () => {
  it.each([
    ["plain text", "no links here", "no links here"],
    [
      "an http link",
      "Open http://localhost:4321/password/reset/MQ/abc-123 now",
      'Open <a href="http://localhost:4321/password/reset/MQ/abc-123">http://localhost:4321/password/reset/MQ/abc-123</a> now',
    ],
    [
      "an https link followed by a full stop",
      "See https://fce.test/fees.",
      'See <a href="https://fce.test/fees">https://fce.test/fees</a>.',
    ],
    [
      "a link in brackets",
      "(https://fce.test/a)",
      '(<a href="https://fce.test/a">https://fce.test/a</a>)',
    ],
    [
      "a query string with &",
      "https://fce.test/?a=1&b=2",
      '<a href="https://fce.test/?a=1&amp;b=2">https://fce.test/?a=1&amp;b=2</a>',
    ],
    ["a javascript: address", "javascript:alert(1)", "javascript:alert(1)"],
    ["a data: address", "data:text/html,<b>x</b>", "data:text/html,&lt;b&gt;x&lt;/b&gt;"],
    [
      "markup next to a link",
      '<img src=x onerror="a()">http://x.test/"y',
      '&lt;img src=x onerror=&quot;a()&quot;&gt;<a href="http://x.test/">http://x.test/</a>&quot;y',
    ],
    ["a bare scheme", "http:// and https://", "http:// and https://"],
  ])("renders %s", async (_case, text, expected) => {
    expect(await render(text)).toBe(expected);
  });
});
