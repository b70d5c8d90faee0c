import { expect, test, type Page } from "@playwright/test";
import { DEMO, signIn, waitForIslands, PORTAL_ORIGIN, SANDBOX_ORIGIN } from "./support.ts";

// The local Paystack sandbox runtime/start.ts runs beside the portal (PORT + 8) and its key.
const SANDBOX_KEY = "sk_test_local_sandbox_key";

async function choose(page: Page, option: string, level: string, session: string) {
  await page.getByLabel("Payment category").selectOption(option);
  await page.getByLabel("Level").selectOption(level);
  await page.getByLabel("Session").selectOption(session);
}

test("a fresher pays the full 100-level fee, sees it paid, prints the slip and its QR link says genuine", async ({
  page,
}) => {
  await signIn(page, DEMO.fresher, "/payment");
  await waitForIslands(page);
  await expect(page.getByRole("button", { name: "Proceed to payment" })).toHaveCount(0);
  await choose(page, "full", "100", "2024/2025");
  await expect(page.getByTestId("fee-amount")).toHaveText("₦120,000");
  await page.getByRole("button", { name: "Proceed to payment" }).click();

  await expect(page).toHaveURL(new RegExp(`^${SANDBOX_ORIGIN}/checkout/`));
  await expect(page.getByText("₦120,000.00", { exact: true })).toBeVisible();
  const reference = (await page.locator("dt:text-is('Reference') + dd").textContent())!;
  expect(reference).toMatch(/^CCE-\d{8}-[0-9A-Z]{12}$/);
  await page.getByRole("button", { name: "Pay ₦120,000.00" }).click();

  await expect(page).toHaveURL("/successful");
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  await expect(page).toHaveURL("/history/payments", { timeout: 10_000 });
  await expect(page.getByRole("heading", { name: "Payments Management" })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: reference });
  await expect(row).toContainText("₦120,000");
  await expect(row).toContainText("2024/2025");
  await expect(row).toContainText("Success");
  await expect(row.getByRole("button", { name: /Requery/ })).toHaveCount(0);

  await row.getByRole("link", { name: /^Print/ }).click();
  await expect(page).toHaveURL(`/invoice/school-fee/${reference}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    `School Fees Payment Slip ${reference}`,
  );
  for (const text of [
    "In Affiliation with",
    "Bello Ibrahim Musa",
    "CCE/2024/ENG/0107",
    "Online Payment Slip page 1 of 1",
  ]) {
    await expect(page.getByText(text, { exact: true })).toBeVisible();
  }
  await expect(page.getByRole("row", { name: /Amount Paid/ })).toContainText("₦120,000");
  await expect(page.getByRole("row", { name: /Payment Type/ })).toContainText("Full");
  await expect(page.getByRole("row", { name: /Payment Description/ })).toContainText(
    "School Fee Payment",
  );
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go back" })).toBeVisible();
  const pdf = (await page.pdf({ preferCSSPageSize: true })).toString("latin1");
  expect(pdf.match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1);

  const verifyUrl = (await page.locator("[data-verify-link]").getAttribute("href"))!;
  expect(verifyUrl.startsWith(`${PORTAL_ORIGIN}/verify/`)).toBe(true);
  expect(verifyUrl).toMatch(/\/verify\/[\w-]+\.[\w-]{22}$/);
  await page.locator("[data-verify-link]").click();
  await expect(page).toHaveURL(verifyUrl);
  await expect(page.getByText("Genuine slip.")).toBeVisible();
  for (const text of [
    "Bello Ibrahim Musa",
    "CCE/2024/ENG/0107",
    "₦120,000",
    "2024/2025",
    reference,
  ]) {
    await expect(page.getByText(text, { exact: true })).toBeVisible();
  }
  // One altered character in the token and the slip is no longer vouched for.
  const altered = verifyUrl.replace(/.$/, (last) => (last === "A" ? "B" : "A"));
  const answer = await page.goto(altered);
  expect(answer?.status()).toBe(404);
  await expect(page.getByText("Not genuine.")).toBeVisible();

  await page.goto("/");
  await expect(page.getByRole("region", { name: "School Fee" })).toContainText(
    "Paid (Full Payment)",
  );
});

test("a fresher who pays and closes the tab before the redirect is still credited", async ({
  page,
  context,
  request,
}) => {
  await signIn(page, DEMO.fresher, "/payment");
  await waitForIslands(page);
  await choose(page, "latefees", "100", "2023/2024");
  await expect(page.getByTestId("fee-amount")).toHaveText("₦5,000");
  await page.getByRole("button", { name: "Proceed to payment" }).click();
  await expect(page).toHaveURL(new RegExp(`^${SANDBOX_ORIGIN}/checkout/`));
  const reference = (await page.locator("dt:text-is('Reference') + dd").textContent())!;
  await page.close();

  const history = await context.newPage();
  await history.goto("/history/payments");
  const row = history.getByRole("row").filter({ hasText: reference });
  await expect(row).toContainText("Pending");
  await expect(row.getByRole("button", { name: /Requery/ })).toBeVisible();

  // The student paid at Paystack; no browser ever returns to the portal, only the webhook does.
  const paid = await request.post(`${SANDBOX_ORIGIN}/__sandbox/transactions/${reference}/pay`, {
    headers: { authorization: `Bearer ${SANDBOX_KEY}` },
  });
  expect(paid.ok()).toBe(true);
  expect((await paid.json()).data.webhook).toBe("delivered");

  await history.reload();
  await expect(row).toContainText("Success");
  await expect(row.getByRole("link", { name: /^Print/ })).toBeVisible();
});

test("a refused quote keeps the choices and its reason until the student changes one", async ({
  page,
}) => {
  await signIn(page, DEMO.fresher, "/payment");
  await waitForIslands(page);
  await choose(page, "second_installment", "100", "2022/2023");
  const reason = /^Pay the first installment \(Part Payment\) for 100 level, 2022\/2023/;
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: reason });
  await expect(toast).toBeVisible();
  // Longer than a confirmation's 2 seconds: a refusal stays until it is closed.
  await page.waitForTimeout(3_000);
  await expect(toast).toBeVisible();
  await expect(page.locator(".pay-quote").getByText(reason)).toBeVisible();
  await expect(page.getByLabel("Payment category")).toHaveValue("second_installment");
  await expect(page.getByLabel("Level")).toHaveValue("100");
  await expect(page.getByLabel("Session")).toHaveValue("2022/2023");
  await expect(page.getByRole("button", { name: "Proceed to payment" })).toHaveCount(0);
  await toast.getByRole("button", { name: /close/i }).click();
  await expect(toast).toBeHidden();

  // Changing a choice asks again and the earlier reason goes.
  await page.getByLabel("Payment category").selectOption("part");
  await expect(page.getByRole("button", { name: "Proceed to payment" })).toBeVisible();
  await expect(page.getByText(reason)).toHaveCount(0);
});

test("Requery says when Paystack has no money for the attempt, with and without JavaScript", async ({
  page,
  browser,
  context,
}) => {
  await signIn(page, DEMO.fresher, "/payment");
  await waitForIslands(page);
  await choose(page, "part", "100", "2021/2022");
  await page.getByRole("button", { name: "Proceed to payment" }).click();
  await expect(page).toHaveURL(new RegExp(`^${SANDBOX_ORIGIN}/checkout/`));
  const reference = (await page.locator("dt:text-is('Reference') + dd").textContent())!;

  // With scripts: one call, the 'Verification Failed' toast and the reason on the page.
  await page.goto("/history/payments");
  const row = page.getByRole("row").filter({ hasText: reference });
  await row.getByRole("button", { name: /Requery/ }).click();
  await expect(page.getByRole("alert").filter({ hasText: /^Verification Failed$/ })).toBeVisible();
  await expect(
    page.getByText(/^Verification Failed: No money is recorded for this attempt/),
  ).toBeVisible();
  await expect(row.getByRole("button", { name: `Requery ${reference}` })).toBeEnabled();

  const plain = await browser.newContext({
    javaScriptEnabled: false,
    baseURL: test.info().project.use.baseURL,
    storageState: await context.storageState(),
  });
  const history = await plain.newPage();
  await history.goto("/history/payments");
  await history
    .getByRole("row")
    .filter({ hasText: reference })
    .getByRole("button", { name: /Requery/ })
    .click();
  // Without scripts: the page answers the post with the API's own reason, as the script shows it.
  await expect(history).toHaveURL(/\/history\/payments$/);
  await expect(history.getByTestId("requery-refusal")).toHaveText(
    /^Verification Failed: No money is recorded for this attempt/,
  );
  await expect(history.getByRole("row").filter({ hasText: reference })).toBeVisible();
  await plain.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  // The returning demo student's seeded payment and hostel invoice; nothing here changes them.
  test("the payment history and both slips are readable", async ({ page }) => {
    await page.goto("/login?next=%2Fhistory%2Fpayments");
    await page.getByLabel("Phone number").fill(DEMO.returning.phone);
    await page.getByLabel("Password", { exact: true }).fill(DEMO.returning.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL("/history/payments");
    const fee = page.getByRole("row").filter({ hasText: "CCE-20231009-4D7KQ2M9XW3P" });
    await expect(fee).toContainText("₦70,500");
    await expect(fee).toContainText("09-10-2023, 10:14:05 am");

    await fee.getByRole("link", { name: /^Print/ }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "School Fees Payment Slip CCE-20231009-4D7KQ2M9XW3P",
    );
    await expect(page.getByRole("row", { name: /Payment Type/ })).toContainText(
      "First Installment",
    );
    await expect(page.getByRole("row", { name: /Date of Payment/ })).toContainText(
      "09/10/2023 10:14",
    );

    await page.goto("/history/payments");
    const hostel = page.getByRole("row").filter({ hasText: "Queen Amina Hall — 4-bed room" });
    await hostel.getByRole("link", { name: /^Print/ }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Hostel Payment Slip CCE-20231012-8B2N6R4T1V9C",
    );
    await expect(page.getByRole("row", { name: /Number of Occupants/ })).toContainText("4");
  });
});
