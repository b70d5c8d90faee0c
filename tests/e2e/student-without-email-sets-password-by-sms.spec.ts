import { expect, test, type Page } from "@playwright/test";
import { importedWithoutEmail } from "./fresh-student.ts";

// A student imported without an e-mail address sets the first password with a code texted to the
// phone on the record, on plain pages that need no JavaScript (decision 200).
test.use({ javaScriptEnabled: false });

const PASSWORD = "Zaria-Harmattan-26";

/** The newest code texted to `phone`, read from the development SMS outbox, newer than `not`. */
async function textedCode(page: Page, phone: string, not = "") {
  const outbox = await page.context().newPage();
  let code = "";
  await expect
    .poll(async () => {
      await outbox.goto("/api/dev/sms-outbox");
      // Newest first; read without waiting, so each poll loads the page afresh.
      const [newest] = await outbox
        .locator(`li[data-sms-to="+234${phone.slice(1)}"] .text`)
        .allTextContents();
      code = newest?.trim().match(/^(\d{6}) is your/)?.[1] ?? "";
      return code !== "" && code !== not;
    })
    .toBe(true);
  await outbox.close();
  return code;
}

test("a student without e-mail gets a code by SMS, sets a password with it and signs in", async ({
  page,
  browser,
}) => {
  const student = await importedWithoutEmail(browser, 201);

  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { name: "No e-mail? Get a code by SMS" })).toBeVisible();
  await page.getByLabel("Phone number").fill(student.phone);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByRole("status")).toContainText(
    "If that phone number is on a student's record, a 6-digit code is on its way by SMS. It works for 10 minutes.",
  );
  await expect(page.getByLabel("Phone number").first()).toHaveValue(student.phone);
  const code = await textedCode(page, student.phone);

  // A mistyped code is refused, with the fields kept and nothing changed.
  const mistyped = code === "000000" ? "111111" : "000000";
  await page.getByLabel("Code from the SMS").fill(mistyped);
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("alert")).toContainText("That code does not work");
  await expect(page.getByLabel("Phone number").first()).toHaveValue(student.phone);

  await page.getByLabel("Code from the SMS").fill(`${code.slice(0, 3)} ${code.slice(3)}`);
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page).toHaveURL("/login?password_changed=1");

  await page.getByLabel("Phone number").fill(student.phone);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByText(student.name, { exact: false }).first()).toBeVisible();
});
