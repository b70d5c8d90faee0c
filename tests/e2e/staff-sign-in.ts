import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";

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

/**
 * Signs in a demo account that needs an authenticator (admin, bursar), whatever came before:
 * enrols it on a fresh database, or enters the code from the key an earlier journey enrolled.
 */
export async function signInWithAuthenticator(
  page: Page,
  email: string,
  password = DEMO_STAFF_PASSWORD,
) {
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
    if (!existsSync(keyFile(email)))
      throw new Error(
        `${email} enrolled an authenticator in an earlier run: start with a fresh database.`,
      );
    const { key, usedStep } = JSON.parse(readFileSync(keyFile(email), "utf8")) as {
      key: string;
      usedStep: number;
    };
    // A code is accepted once, and only a later step's after it. When the last sign-in used this
    // step's, play a phone whose clock runs one step ahead (the server allows that much drift)
    // rather than wait up to 30 s; only two sign-ins within one step wait for the next.
    const wait = usedStep * PERIOD_MS - Date.now();
    if (wait > 0) await page.waitForTimeout(wait + 100);
    const step = Math.max(currentStep(), usedStep + 1);
    await page.getByLabel("Code", { exact: true }).fill(codeFor(key, step));
    rememberAuthenticatorKey(email, key, step);
    await page.getByRole("button", { name: "Continue" }).click();
  }
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
}

export const signInAsAdministrator = (page: Page) => signInWithAuthenticator(page, ADMIN);
