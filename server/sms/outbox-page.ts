import { Hono } from "hono";
import { html } from "hono/html";
import { readSmsOutbox } from "./outbox.ts";

const TITLE = "SMS outbox (development only)";
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/**
 * The development SMS outbox as one page, newest first: what a student's phone would have shown,
 * password codes included (so only this machine may read it; server/app.ts).
 */
export function createSmsOutboxPage(options: { dir: string }): Hono {
  const app = new Hono();
  app.get("/", async (c) => {
    const messages = await readSmsOutbox(options.dir);
    c.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    c.header("Cache-Control", "no-store");
    return c.html(
      html`<!doctype html>
        <html lang="en">
          <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <title>${TITLE}</title>
            <style>
              body {
                font-family: system-ui, sans-serif;
                margin: 1rem;
                max-width: 40rem;
              }
              li {
                border-bottom: 1px solid #ccc;
                padding: 0.5rem 0;
                list-style: none;
              }
              .meta {
                color: #555;
                font-size: 0.875rem;
              }
            </style>
          </head>
          <body>
            <h1>${TITLE}</h1>
            ${
              messages.length === 0
                ? html`<p>No text messages yet.</p>`
                : html`<ul>
                    ${messages.map(
                      (message) =>
                        html`<li data-sms-to="${message.to}">
                          <p class="meta">
                            To ${message.to} at
                            <time datetime="${message.sentAt}">${message.sentAt}</time>
                            · ${message.segments} segment${message.segments === 1 ? "" : "s"}
                          </p>
                          <p class="text">${message.text}</p>
                        </li>`,
                    )}
                  </ul>`
            }
          </body>
        </html>`,
    );
  });
  return app;
}
