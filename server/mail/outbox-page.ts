import { Hono } from "hono";
import { html } from "hono/html";
import { linkText } from "./link-text.ts";
import { readOutbox, readOutboxMessage, type OutboxMessage } from "./outbox.ts";

type Html = ReturnType<typeof html>;

const TITLE = "Mail outbox (development only)";

// Inline styles only; a message's own HTML (shown in a sandboxed frame) may not run or fetch.
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/**
 * The development outbox as pages a developer can read without JavaScript:
 * `GET /` lists the newest messages first, `GET /:id` shows one message.
 * Links are relative, so the app works wherever it is mounted.
 */
export function createOutboxPage(options: { dir: string }): Hono {
  const app = new Hono();

  app.use(async (c, next) => {
    await next();
    c.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    c.header("Cache-Control", "no-store");
  });

  app.get("/", async (c) => {
    const messages = await readOutbox(options.dir);
    const linkPrefix = messageLinkPrefix(c.req.path);
    return c.html(layout(TITLE, listView(messages, linkPrefix)));
  });

  app.get("/:id", async (c) => {
    const message = await readOutboxMessage(options.dir, c.req.param("id"));
    const back = listLink(c.req.path);
    if (!message) {
      return c.html(
        layout(TITLE, html`<p>No such message. <a href="${back}">Back to the outbox</a></p>`),
        404,
      );
    }
    return c.html(layout(`${message.subject} · ${TITLE}`, messageView(message, back)));
  });

  return app;
}

/** From the list at ".../outbox" a message is "outbox/<id>"; from ".../outbox/" just "<id>". */
function messageLinkPrefix(listPath: string): string {
  if (listPath.endsWith("/")) return "";
  return `${listPath.slice(listPath.lastIndexOf("/") + 1)}/`;
}

/** From ".../outbox/<id>" back to ".../outbox", without knowing where the app is mounted. */
function listLink(messagePath: string): string {
  const segments = messagePath.split("/");
  const listSegment = segments.at(-2) ?? "";
  return listSegment ? `../${listSegment}` : "./";
}

function listView(messages: OutboxMessage[], linkPrefix: string): Html {
  const intro = messages.length
    ? html`<p>${messages.length} message${messages.length === 1 ? "" : "s"}, newest first.</p>`
    : html`<p>No mail has been sent yet. Mail sent by the portal appears here.</p>`;
  return html`<h1>${TITLE}</h1>
    ${intro}
    ${messages.map(
      (message) =>
        html`<article>
          <h2><a href="${linkPrefix}${message.id}">${message.subject}</a></h2>
          <p class="meta">${sentTime(message.sentAt)} · to ${message.to}</p>
          <pre>${linkText(message.text)}</pre>
        </article>`,
    )}`;
}

function messageView(message: OutboxMessage, back: string): Html {
  return html`<p><a href="${back}">← All messages</a></p>
    <h1>${message.subject}</h1>
    <dl>
      <dt>Sent</dt>
      <dd>${sentTime(message.sentAt)}</dd>
      <dt>From</dt>
      <dd>${message.from}</dd>
      <dt>To</dt>
      <dd>${message.to}</dd>
      ${
        message.replyTo
          ? html`<dt>Reply to</dt>
              <dd>${message.replyTo}</dd>`
          : ""
      }
    </dl>
    <pre>${linkText(message.text)}</pre>
    ${
      message.html
        ? html`<h2>HTML version</h2>
            <iframe sandbox srcdoc="${message.html}" title="HTML version of the message"></iframe>`
        : ""
    }`;
}

function sentTime(sentAt: string): Html {
  const readable = sentAt.replace("T", " ").replace(/\.\d+Z$/, " UTC");
  return html`<time datetime="${sentAt}">${readable}</time>`;
}

function layout(title: string, body: Html): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${title}</title>
        <style>
          body {
            font:
              16px/1.5 system-ui,
              sans-serif;
            max-width: 50rem;
            margin: 0 auto;
            padding: 1rem;
            color: #1a1a1a;
          }
          article {
            border-top: 1px solid #ccc;
            padding: 0.5rem 0 1rem;
          }
          h2 {
            font-size: 1.15rem;
            margin: 0.5rem 0 0;
          }
          .meta {
            color: #555;
            margin: 0.25rem 0;
          }
          pre {
            white-space: pre-wrap;
            overflow-wrap: anywhere;
            background: #f4f4f4;
            padding: 0.75rem;
          }
          dl {
            display: grid;
            grid-template-columns: max-content 1fr;
            gap: 0.25rem 1rem;
          }
          dd {
            margin: 0;
          }
          iframe {
            width: 100%;
            height: 30rem;
            border: 1px solid #ccc;
          }
        </style>
      </head>
      <body>
        ${body}
      </body>
    </html>`;
}
