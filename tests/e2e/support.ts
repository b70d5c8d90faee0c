import { expect, type APIRequestContext, type Page } from "@playwright/test";

/** Demo students the seed creates (README lists them). */
export const DEMO = {
  returning: { phone: "08030000001", password: "demo1234", othername: "Chiamaka Grace" },
  fresher: { phone: "08030000002", password: "demo1234", othername: "Ibrahim Musa" },
} as const;

/** Signs in through the real form and waits for the page sign-in leads to. */
export async function signIn(page: Page, who: { phone: string; password: string }, next = "/") {
  await page.goto(next === "/" ? "/login" : `/login?next=${encodeURIComponent(next)}`);
  // Scripts take the form over once loaded; before that it posts as plain HTML (tested apart).
  await expect(page.locator("form[data-enhanced]")).toHaveCount(1);
  await page.getByLabel("Phone number").fill(who.phone);
  await page.getByLabel("Password", { exact: true }).fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(next);
}

/** Signs in through the plain form with JavaScript off (the page posts; the proxy redirects). */
export async function signInWithoutJavaScript(
  page: Page,
  who: { phone: string; password: string },
  next: string,
) {
  await page.goto(`/login?${new URLSearchParams({ next })}`);
  await page.getByLabel("Phone number").fill(who.phone);
  await page.getByLabel("Password", { exact: true }).fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(next);
}

/** Waits until every React island on the page has hydrated (Astro drops the ssr attribute). */
export async function waitForIslands(page: Page) {
  await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
}

/** The portal under test and its Paystack sandbox (playwright.config.ts: PORT and PORT + 8). */
export const PORTAL_PORT = Number(process.env.E2E_PORT ?? 4400);
export const PORTAL_ORIGIN = `http://localhost:${PORTAL_PORT}`;
export const SANDBOX_ORIGIN = `http://localhost:${PORTAL_PORT + 8}`;

/**
 * The newest development-outbox mail that contains every one of `texts`, reloading the outbox
 * until it arrives: mail goes through the job queue, whose worker polls every two seconds.
 */
export async function mailInOutbox(page: Page, ...texts: string[]) {
  const mail = () =>
    texts.reduce((found, text) => found.filter({ hasText: text }), page.locator("article")).first();
  await expect
    .poll(
      async () => {
        await page.goto("/api/dev/outbox");
        return mail().count();
      },
      { message: `a mail in the outbox with ${texts.map((text) => `"${text}"`).join(" and ")}` },
    )
    .toBe(1);
  return mail();
}

/**
 * Holds the line at the door or lets it go, through the development hook (decision 193): while
 * it is held every newcomer waits as they would when the portal is full, without a crowd. The
 * door reads the line at most once a second, so this returns once /readyz says the door is as
 * asked: a newcomer a moment sooner would walk in past a hold (or wait behind one let go).
 */
export async function holdTheDoor(request: APIRequestContext, hold: boolean) {
  const answer = await request.post("/api/dev/waiting-line", {
    headers: { origin: PORTAL_ORIGIN },
    data: { hold },
  });
  expect(answer.ok()).toBe(true);
  await expect
    .poll(async () => (await (await request.get("/readyz")).json()).line?.held, {
      intervals: [250],
    })
    .toBe(hold);
}
