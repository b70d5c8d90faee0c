import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { signIn, waitForIslands, SANDBOX_ORIGIN } from "./support.ts";
import { signInWithAuthenticator } from "./staff-sign-in.ts";

// The locked demo student (300 level) pays older sessions' fees here, so no other journey's
// student or current-session fee status is touched.
const STUDENT = { phone: "08030000003", password: "demo1234" };
const SANDBOX_KEY = "sk_test_local_sandbox_key";

/** The student starts a payment and reaches Paystack's checkout; answers its reference. */
async function startPayment(page: Page, option: string, level: string, session: string) {
  await page.goto("/payment");
  await waitForIslands(page);
  await page.getByLabel("Payment category").selectOption(option);
  await page.getByLabel("Level").selectOption(level);
  await page.getByLabel("Session").selectOption(session);
  await page.getByRole("button", { name: "Proceed to payment" }).click();
  await expect(page).toHaveURL(new RegExp(`^${SANDBOX_ORIGIN}/checkout/`));
  return (await page.locator("dt:text-is('Reference') + dd").textContent())!;
}

async function payAtPaystack(
  request: APIRequestContext,
  reference: string,
  webhook: "none" | "sent",
) {
  const paid = await request.post(
    `${SANDBOX_ORIGIN}/__sandbox/transactions/${reference}/pay${webhook === "none" ? "?webhook=none" : ""}`,
    {
      headers: { authorization: `Bearer ${SANDBOX_KEY}` },
    },
  );
  expect(paid.ok()).toBe(true);
}

test("a payment whose webhook never arrived shows up as paid at Paystack, not credited, and one click credits it once", async ({
  browser,
  request,
}) => {
  const student = await browser.newPage();
  await signIn(student, STUDENT, "/payment");
  const reference = await startPayment(student, "full", "100", "2020/2021");
  await payAtPaystack(request, reference, "none");

  const page = await browser.newPage();
  await signInWithAuthenticator(page, "bursar@college.example");
  await page
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Reconciliation" })
    .click();
  const notCredited = page.getByRole("region", { name: /Paid at the gateway, not credited/ });
  const row = notCredited.getByRole("row").filter({ hasText: reference });
  await expect(row).toContainText("pending");
  await expect(row).toContainText("success");
  await row.getByRole("button", { name: `Verify and credit ${reference}` }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Paystack confirms the payment: it is credited to the student now.",
  );
  await expect(
    page
      .getByRole("region", { name: /^Matched/ })
      .getByRole("row")
      .filter({ hasText: reference }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: `Verify and credit ${reference}` })).toHaveCount(0);

  const download = await page.getByRole("link", { name: "Download as CSV" }).getAttribute("href");
  const csv = await page.request.get(download!);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(await csv.text()).toContain(reference);

  // The payment's page tells the story from stored events: started, Paystack's answer, credited once.
  await page.getByRole("link", { name: reference }).first().click();
  await expect(page.locator(".payment-status")).toHaveText("success");
  const history = page.locator(".payment-history li");
  await expect(history.filter({ hasText: "Credited" })).toHaveCount(1);
  await expect(history.first()).toContainText("Started with Paystack");

  await student.goto("/history/payments");
  await expect(student.getByRole("row").filter({ hasText: reference })).toContainText("Success");
});

test("a duplicate payment is refunded and the student's status stays right", async ({
  browser,
  request,
}) => {
  test.slow(); // two payments, a sign-in with an authenticator, a confirmation and Paystack's webhook
  const student = await browser.newPage();
  await signIn(student, STUDENT, "/payment");
  // Two tabs: the same fee started twice before either was paid, then both paid.
  const first = await startPayment(student, "full", "200", "2021/2022");
  const second = await startPayment(student, "full", "200", "2021/2022");
  await payAtPaystack(request, first, "sent");
  await payAtPaystack(request, second, "sent");

  const page = await browser.newPage();
  await signInWithAuthenticator(page, "bursar@college.example");
  await page
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Refunds" })
    .click();
  const waiting = page.locator(`#refund-${second}`);
  await expect(waiting).toContainText("Paid twice");
  await expect(waiting).toContainText("₦");
  // Part of it, below the second-approval amount, so it goes to Paystack on the bursar's word alone.
  await waiting.getByLabel(/Amount to refund/).fill("20000");
  await waiting.getByRole("button", { name: `Refund ${second}` }).click();
  const confirm = page.getByRole("region", { name: "Confirm the refund" });
  await expect(confirm).toContainText(second);
  await expect(confirm).toContainText("Paid the same fee twice");
  await expect(confirm).toContainText("the student's fee status does not change");
  await confirm.getByRole("button", { name: /^Confirm refund of ₦20,000\.00 to / }).click();
  await expect(page.getByRole("status")).toContainText(
    `for payment ${second} asked of Paystack. It shows as refunded when Paystack confirms it.`,
  );
  await expect(page.locator(`#refund-${second}`)).toHaveCount(0);

  // Paystack settles the refund a moment later and says so by webhook.
  const asked = page.getByRole("row").filter({ hasText: second });
  await expect(async () => {
    await page.reload();
    await expect(asked).toContainText("processed", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });

  await page.goto(`/staff/payments/${second}`);
  await expect(page.locator(".payment-status")).toHaveText("refunded");
  await expect(
    page.locator(".payment-history li").filter({ hasText: "Refund processed" }),
  ).toHaveCount(1);

  await student.goto("/history/payments");
  await expect(student.getByRole("row").filter({ hasText: first })).toContainText("Success");
  await expect(student.getByRole("row").filter({ hasText: second })).toContainText("Refunded");
});

test("a charge reversed at Paystack after crediting is taken back only once the bursar confirms, naming the student, without JavaScript", async ({
  browser,
  request,
}) => {
  const student = await browser.newPage();
  await signIn(student, STUDENT, "/payment");
  const reference = await startPayment(student, "full", "100", "2019/2020");
  await payAtPaystack(request, reference, "sent");
  await expect(async () => {
    await student.goto("/history/payments");
    await expect(student.getByRole("row").filter({ hasText: reference })).toContainText("Success", {
      timeout: 1_000,
    });
  }).toPass({ timeout: 15_000 });
  const reversed = await request.post(
    `${SANDBOX_ORIGIN}/__sandbox/transactions/${reference}/reverse`,
    { headers: { authorization: `Bearer ${SANDBOX_KEY}` } },
  );
  expect(reversed.ok()).toBe(true);

  const page = await browser.newPage({ javaScriptEnabled: false });
  await signInWithAuthenticator(page, "bursar@college.example");
  await page.goto("/staff/reconciliation");
  const row = page
    .getByRole("region", { name: /Credited here, not paid at the gateway/ })
    .getByRole("row")
    .filter({ hasText: reference });
  await row.getByRole("button", { name: `Record reversal of ${reference}` }).click();

  // The first click only asks: whose credit, how much, and that nothing has changed yet.
  const confirm = page.getByRole("region", { name: `Take back the credit of ${reference}?` });
  await expect(confirm).toContainText("Nwosu Emeka Daniel (CCE/2021/BIO/0019)");
  await expect(confirm).toContainText("₦");
  await student.goto("/history/payments");
  await expect(student.getByRole("row").filter({ hasText: reference })).toContainText("Success");

  await confirm.getByRole("button", { name: `Yes, record the reversal of ${reference}` }).click();
  await expect(page.getByRole("status")).toHaveText(
    new RegExp(
      `^Reversal recorded: the credit of ₦[\\d,.]+ for Nwosu Emeka Daniel \\(CCE/2021/BIO/0019\\), ${reference}, is taken back`,
    ),
  );
  await student.goto("/history/payments");
  await expect(student.getByRole("row").filter({ hasText: reference })).toContainText(/Reversed/i);
});
