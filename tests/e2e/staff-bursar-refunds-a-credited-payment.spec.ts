import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { freshStudent } from "./fresh-student.ts";
import { signInAsAdministrator, signInWithAuthenticator } from "./staff-sign-in.ts";
import { SANDBOX_ORIGIN, signIn, waitForIslands } from "./support.ts";

// Decision 151: the bursar refunds an ordinary credited payment after a confirmation page, and a
// refund above REFUND_SECOND_APPROVAL_KOBO (₦50,000 by default) waits for a second approver.
// Each journey has its own new student (numbers 101 and 102), whose fees no other journey pays.
// The administrator approves here, so this file is named to run after staff-accounts.spec.ts,
// which sets up the administrator's authenticator on the run's fresh database.
const SANDBOX_KEY = "sk_test_local_sandbox_key";
// A new student, a payment, and two staff sign-ins with their authenticators: more than a minute
// on a busy machine.
test.describe.configure({ timeout: 240_000 });

/** A fresh student pays this session's full fee (₦120,000) by card and is credited; answers the page and reference. */
async function paidStudent(browser: Browser, request: APIRequestContext, n: number) {
  const who = await freshStudent(browser, n);
  const page = await browser.newPage();
  await signIn(page, who, "/payment");
  await page.goto("/payment");
  await waitForIslands(page);
  await page.getByLabel("Payment category").selectOption("full");
  await page.getByLabel("Level").selectOption("100");
  await page.getByLabel("Session").selectOption("2024/2025");
  await page.getByRole("button", { name: "Proceed to payment" }).click();
  await expect(page).toHaveURL(new RegExp(`^${SANDBOX_ORIGIN}/checkout/`));
  const reference = (await page.locator("dt:text-is('Reference') + dd").textContent())!;
  const paid = await request.post(`${SANDBOX_ORIGIN}/__sandbox/transactions/${reference}/pay`, {
    headers: { authorization: `Bearer ${SANDBOX_KEY}` },
  });
  expect(paid.ok()).toBe(true);
  await expect(async () => {
    await page.goto("/");
    await expect(page.getByText("Paid (Full Payment)")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  const number = String(900 + n);
  return {
    page,
    reference,
    name: `Fresh ${["Adamu", "Bisi", "Chidi"][n % 10]} Adamu`,
    matric: `COE/2024/FEE/${number}`,
  };
}

/** The bursar asks for a refund from the payment's own page and reaches the confirmation. */
async function askFromPaymentPage(page: Page, reference: string, amount: string, reason: string) {
  await page.goto(`/staff/payments/${reference}`);
  const form = page.getByRole("region", { name: "Refund this payment" });
  await form.getByLabel(/Amount to refund/).fill(amount);
  await form.getByLabel("Reason").fill(reason);
  await form.getByRole("button", { name: `Check the refund of ${reference}` }).click();
  return page.getByRole("region", { name: /^(Confirm the refund|Approve or decline the refund)$/ });
}

test("the bursar refunds part of a credited payment after a confirmation, and the student still counts as paid", async ({
  browser,
  request,
}) => {
  const student = await paidStudent(browser, request, 101);
  // The bursar's pages are plain forms: the ask, its confirmation and the answer need no script.
  const page = await browser.newPage({ javaScriptEnabled: false });
  await signInWithAuthenticator(page, "bursar@college.example");

  const confirm = await askFromPaymentPage(
    page,
    student.reference,
    "20,000",
    "Charged the hostel levy twice",
  );
  // The confirmation repeats who, which payment, how much and why, before anything is sent.
  await expect(confirm).toContainText(`${student.name} (${student.matric})`);
  await expect(confirm).toContainText(student.reference);
  await expect(confirm).toContainText("₦20,000.00 of ₦120,000.00 paid");
  await expect(confirm).toContainText("Charged the hostel levy twice");
  await expect(confirm).toContainText("the payment still counts towards the student's school fees");
  await confirm
    .getByRole("button", {
      name: `Confirm refund of ₦20,000.00 to ${student.name} (${student.matric})`,
    })
    .click();
  await expect(page.getByRole("status")).toHaveText(
    `Refund of ₦20,000.00 to ${student.name} (${student.matric}) for payment ${student.reference} asked of Paystack. It shows as refunded when Paystack confirms it. The payment still counts towards the student's fees.`,
  );

  await page.goto(`/staff/payments/${student.reference}`);
  await expect(page.locator(".payment-status")).toHaveText("success");
  await expect(page.getByRole("region", { name: "Refund this payment" })).toHaveCount(0);

  await expect(async () => {
    await student.page.goto("/history/payments");
    await expect(
      student.page.getByRole("row").filter({ hasText: student.reference }),
    ).toContainText("₦20,000.00 of this payment was refunded to you", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await student.page.goto("/");
  await expect(student.page.getByText("Paid (Full Payment)")).toBeVisible();
});

test("a refund of a whole payment waits for a second approver: not the bursar who asked, but the administrator, and the student's fee is unpaid again", async ({
  browser,
  request,
}) => {
  const student = await paidStudent(browser, request, 102);
  const page = await browser.newPage();
  await signInWithAuthenticator(page, "bursar@college.example");

  const confirm = await askFromPaymentPage(
    page,
    student.reference,
    "",
    "Withdrew before lectures began",
  );
  await expect(confirm).toContainText("₦120,000.00 of ₦120,000.00 paid");
  await expect(confirm).toContainText("it stops counting towards the student's school fees");
  await expect(confirm).toContainText("This refund waits for a second approver");
  await confirm
    .getByRole("button", {
      name: `Ask for refund of ₦120,000.00 to ${student.name} (${student.matric})`,
    })
    .click();
  await expect(page.getByRole("status")).toHaveText(
    `Refund waiting for a second approver: ₦120,000.00 to ${student.name} (${student.matric}) for payment ${student.reference}. Another bursary officer or an administrator approves or declines it under Refunds; Paystack is asked only then.`,
  );

  // The bursar who asked is offered no approval.
  await page.getByRole("button", { name: `Review refund for ${student.reference}` }).click();
  await expect(page.getByRole("region", { name: "Approve or decline the refund" })).toContainText(
    "You asked for this refund, so someone else must approve it",
  );
  await expect(page.getByRole("button", { name: /^Approve and refund/ })).toHaveCount(0);
  await student.page.goto("/");
  await expect(student.page.getByText("Paid (Full Payment)")).toBeVisible();

  const admin = await browser.newPage();
  await signInAsAdministrator(admin);
  await admin
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Refunds" })
    .click();
  await admin.getByRole("button", { name: `Review refund for ${student.reference}` }).click();
  const review = admin.getByRole("region", { name: "Approve or decline the refund" });
  await expect(review).toContainText(`${student.name} (${student.matric})`);
  await expect(review).toContainText(student.reference);
  await expect(review).toContainText("₦120,000.00 of ₦120,000.00 paid");
  await expect(review).toContainText("Withdrew before lectures began");
  await expect(review).toContainText("Funke Adeyemi");
  await review
    .getByRole("button", {
      name: `Approve and refund ₦120,000.00 to ${student.name} (${student.matric})`,
    })
    .click();
  await expect(admin.getByRole("status")).toHaveText(
    `Refund approved: Refund of ₦120,000.00 to ${student.name} (${student.matric}) for payment ${student.reference} asked of Paystack. It shows as refunded when Paystack confirms it. The payment no longer counts towards the student's fees.`,
  );

  await student.page.goto("/");
  await expect(student.page.getByText("Not Paid", { exact: true })).toBeVisible();
  await expect(
    student.page.getByText(
      new RegExp(
        `Payment ${student.reference}: (Being refunded|Refunded) to you in full \\(₦120,000\\.00\\): this payment no longer counts towards your school fees\\.`,
      ),
    ),
  ).toBeVisible();
  await student.page.goto("/payment");
  await expect(student.page.getByText(/to you in full \(₦120,000\.00\)/)).toBeVisible();
});
