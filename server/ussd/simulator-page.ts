import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { html, raw } from "hono/html";
import { DEMO_USSD_PIN } from "./seed.ts";

const TITLE = "USSD simulator (development only)";

/**
 * A phone-shaped page that calls the USSD menu as Africa's Talking does (a form post to
 * /api/ussd per screen, `text` the choices so far joined by `*`), so a newcomer can walk the menu
 * after `npm start`. Development only and this machine only (server/app.ts); the callback secret,
 * if the machine has one, goes into the page because only this machine can read it.
 */
export function createUssdSimulatorPage(options: { callbackSecret?: string; dialCode?: string }) {
  const app = new Hono();
  const endpoint = options.callbackSecret
    ? `/api/ussd?${new URLSearchParams({ secret: options.callbackSecret })}`
    : "/api/ussd";
  const dialCode = options.dialCode ?? "*384*123#";
  app.get("/", (c) => {
    const nonce = randomBytes(16).toString("base64");
    c.header(
      "Content-Security-Policy",
      `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; connect-src 'self'; base-uri 'none'; form-action 'none'`,
    );
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
                color: #1a1a1a;
              }
              .phone {
                max-width: 18rem;
                border: 0.75rem solid #222;
                border-radius: 1.5rem;
                padding: 1rem;
                background: #f4f6f4;
              }
              .screen {
                min-height: 10rem;
                white-space: pre-wrap;
                font-family: ui-monospace, monospace;
                font-size: 0.95rem;
                background: #dfe8d8;
                padding: 0.75rem;
                border-radius: 0.25rem;
                margin: 0 0 0.75rem;
              }
              label {
                display: block;
                font-size: 0.875rem;
                margin: 0.5rem 0 0.25rem;
              }
              input {
                width: 100%;
                box-sizing: border-box;
                font-size: 1.1rem;
                padding: 0.4rem;
              }
              button {
                font-size: 1rem;
                padding: 0.5rem 0.9rem;
                margin: 0.5rem 0.25rem 0 0;
                min-height: 2.75rem;
              }
              button:focus-visible,
              input:focus-visible {
                outline: 3px solid #1d5fbf;
                outline-offset: 2px;
              }
              .note {
                color: #444;
                font-size: 0.875rem;
                max-width: 36rem;
              }
            </style>
          </head>
          <body>
            <h1>${TITLE}</h1>
            <p class="note">
              Dials the portal's USSD menu as the network would, one screen at a time. The demo
              students' USSD PIN is ${DEMO_USSD_PIN}; a student sets their own on the Update Biodata
              page. What the menu texts lands in the <a href="/api/dev/sms-outbox">SMS outbox</a>.
            </p>
            <div class="phone">
              <label for="ussd-phone">Phone number of this phone</label>
              <input id="ussd-phone" type="tel" value="08030000001" autocomplete="off" />
              <button type="button" id="ussd-dial">Dial ${dialCode}</button>
              <p class="screen" id="ussd-screen" role="status" aria-live="polite">Dial to start.</p>
              <form id="ussd-form" hidden>
                <label for="ussd-reply">Reply</label>
                <input id="ussd-reply" inputmode="numeric" autocomplete="off" />
                <button type="submit">Send</button>
                <button type="button" id="ussd-cancel">Cancel</button>
              </form>
            </div>
            <script nonce="${nonce}">
              ${raw(simulatorScript(endpoint, dialCode))};
            </script>
          </body>
        </html>`,
    );
  });
  return app;
}

/** The page's script: keeps the session id and the choices so far, as the network does. */
function simulatorScript(endpoint: string, dialCode: string) {
  return `
const screen = document.getElementById("ussd-screen");
const form = document.getElementById("ussd-form");
const reply = document.getElementById("ussd-reply");
const phone = document.getElementById("ussd-phone");
let session = null;
let choices = [];
function international(number) {
  const digits = number.replace(/\\D/g, "");
  return digits.startsWith("0") ? "+234" + digits.slice(1) : "+" + digits;
}
async function ask() {
  const body = new URLSearchParams({
    sessionId: session, serviceCode: ${JSON.stringify(dialCode)},
    phoneNumber: international(phone.value), networkCode: "62120", text: choices.join("*"),
  });
  const response = await fetch(${JSON.stringify(endpoint)}, { method: "POST", body });
  const answer = await response.text();
  if (!response.ok || !/^(CON|END) /.test(answer)) return end("The menu answered " + response.status + ".");
  screen.textContent = answer.slice(4);
  if (answer.startsWith("END ")) return end();
  form.hidden = false;
  reply.value = "";
  reply.focus();
}
function end(message) {
  if (message) screen.textContent = message;
  session = null;
  form.hidden = true;
}
document.getElementById("ussd-dial").addEventListener("click", () => {
  session = "ATUid_sim_" + Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
  choices = [];
  ask();
});
form.addEventListener("submit", (event) => {
  event.preventDefault();
  if (!session) return;
  choices.push(reply.value.trim());
  ask();
});
document.getElementById("ussd-cancel").addEventListener("click", () => end("Cancelled."));
`;
}
