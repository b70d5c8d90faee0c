import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { STAFF_COOKIE } from "../../common/session/cookie.ts";
import { PORTAL_ORIGIN } from "./support.ts";

export const DEMO_STAFF_PASSWORD = "demo1234";
const ADMIN = "admin@college.example";
const PERIOD_MS = 30_000;

/** Signs in on the staff sign-in form (a plain form: no script involved). */
export async function staffSignIn(page: Page, email: string, password = DEMO_STAFF_PASSWORD) {
  await page.goto("/staff/login");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

const currentStep = () => Math.floor(Date.now() / PERIOD_MS);

/** Plays the authenticator app for the key shown on the set-up page: the code of `step` (now's by default). */
export const codeFor = (key: string, step = currentStep()) =>
  new TOTP({
    algorithm: "SHA1",
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(key.replaceAll(" ", "")),
  }).generate({
    timestamp: step * PERIOD_MS,
  });

// A demo account's authenticator key lives as long as the run's database, across spec files:
// playwright.config.ts gives every run one E2E_STATE_DIR.
const keyFile = (email: string) =>
  path.join(process.env.E2E_STATE_DIR ?? "", `${email}-authenticator.json`);

/** Remembers the key an account enrolled with, and the 30-second step its code used. */
export function rememberAuthenticatorKey(email: string, key: string, usedStep = currentStep()) {
  writeFileSync(keyFile(email), JSON.stringify({ key, usedStep }));
}

export const rememberAdministratorKey = (key: string) => rememberAuthenticatorKey(ADMIN, key);

const sessionFile = (email: string) =>
  path.join(process.env.E2E_STATE_DIR ?? "", `${email}-staff-session.json`);

/** Keeps the staff session the page's context holds, signed in as `email`, for later journeys. */
export async function rememberStaffSession(page: Page, email: string) {
  const cookies = await page.context().cookies(PORTAL_ORIGIN);
  const session = cookies.find((cookie) => cookie.name === STAFF_COOKIE);
  if (session) writeFileSync(sessionFile(email), JSON.stringify(session));
}

/**
 * Opens `address` in the page's context with the session an earlier sign-in of `email` kept;
 * false when none was kept or it has ended (the staff gate then sends the page to sign in).
 */
export async function resumeStaffSession(page: Page, email: string, address = "/staff") {
  if (!existsSync(sessionFile(email))) return false;
  await page.context().addCookies([JSON.parse(readFileSync(sessionFile(email), "utf8"))]);
  await page.goto(address);
  return new URL(page.url()).pathname === new URL(address, PORTAL_ORIGIN).pathname;
}

function keptKey(email: string) {
  if (!existsSync(keyFile(email))) return null;
  return JSON.parse(readFileSync(keyFile(email), "utf8")) as { key: string; usedStep: number };
}

/**
 * Signs in a demo account that needs an authenticator (admin, bursar), whatever came before:
 * enrols it on a fresh database, or enters the code from the key an earlier journey enrolled.
 * When that code would have to wait for the next 30-second step, it resumes the session the
 * account's last sign-in kept instead: those waits were a minute of the staff lane (decision 172).
 */
export async function signInWithAuthenticator(
  page: Page,
  email: string,
  password = DEMO_STAFF_PASSWORD,
) {
  const kept = keptKey(email);
  if (kept && kept.usedStep > currentStep() && (await resumeStaffSession(page, email))) {
    await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
    return;
  }
  await staffSignIn(page, email, password);
  await expect(page).toHaveURL(/\/staff\/(totp|login\/code)/);
  if (page.url().includes("/staff/totp")) {
    await page.getByRole("button", { name: "Start set-up" }).click();
    const key = (await page.locator(".totp-key").textContent())!;
    await page.getByLabel("Code from the app").fill(codeFor(key));
    // Binding an authenticator takes the password again (decision 163).
    await page.getByLabel("Your password").fill(password);
    await page.getByRole("button", { name: "Confirm" }).click();
    rememberAuthenticatorKey(email, key);
    await page.getByRole("link", { name: "Continue" }).click();
  } else {
    if (!kept)
      throw new Error(
        `${email} enrolled an authenticator in an earlier run: start with a fresh database.`,
      );
    const { key, usedStep } = kept;
    // A code is accepted once, and only a later step's after it. When the last sign-in used this
    // step's, play a phone whose clock runs one step ahead (the server allows that much drift)
    // rather than wait up to 30 s; only two sign-ins within one step wait for the next, when the
    // session before could not be resumed.
    const wait = usedStep * PERIOD_MS - Date.now();
    if (wait > 0) await page.waitForTimeout(wait + 100);
    const step = Math.max(currentStep(), usedStep + 1);
    await page.getByLabel("Code", { exact: true }).fill(codeFor(key, step));
    rememberAuthenticatorKey(email, key, step);
    await page.getByRole("button", { name: "Continue" }).click();
  }
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
  await rememberStaffSession(page, email);
}

export const signInAsAdministrator = (page: Page) => signInWithAuthenticator(page, ADMIN);
