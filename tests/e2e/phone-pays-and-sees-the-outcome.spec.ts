import { expect, test, type Page } from "@playwright/test";
import { freshStudent } from "./fresh-student.ts";
import { expectInViewport, expectPageFitsPhone, expectWhollyShown } from "./phone/checks.ts";
import { PHONE_360 } from "./phone/phones.ts";
import {
  DEMO,
  SANDBOX_ORIGIN,
  signIn,
  signInWithoutJavaScript,
  waitForIslands,
} from "./support.ts";

// Issue 29 on a cheap Android phone: a 360 px screen, touch, with and without JavaScript. Each
// journey has its own new student (numbers 41 to 44), so the order of journeys does not matter.
test.use(PHONE_360);

// The local Paystack sandbox runtime/start.ts runs beside the portal, and its key.
const SANDBOX_KEY = "sk_test_local_sandbox_key";

/** Chooses the full 100-level fee: at once with scripts, by the GET form without. */
async function chooseFullFee(page: Page, js: boolean) {
  await page.goto("/payment");
  if (js) await waitForIslands(page);
  await page.getByLabel("Payment category").selectOption("full");
  await page.getByLabel("Level").selectOption("100");
  await page.getByLabel("Session").selectOption("2024/2025");
  if (!js) await page.getByRole("button", { name: "Show the amount" }).click();
  await expect(page.getByTestId("fee-amount")).toHaveText("₦120,000");
  // The amount the choices lead to, and the way on to pay, come into view with it.
  await expectInViewport(page.getByTestId("fee-amount"));
  await expectPageFitsPhone(page);
}

/** Starts a card payment and leaves Paystack's checkout without paying; answers its reference. */
async function leaveCardCheckout(page: Page, js: boolean) {
  await chooseFullFee(page, js);
  await page.getByRole("button", { name: "Proceed to payment" }).click();
  await expect(page).toHaveURL(new RegExp(`^${SANDBOX_ORIGIN}/checkout/`));
  return (await page.locator("dt:text-is('Reference') + dd").textContent())!;
}

/** Starts a bank transfer or USSD payment; answers its reference from the page it lands on. */
async function startOffline(page: Page, js: boolean, way: "Pay by bank transfer" | "Pay by USSD") {
  await chooseFullFee(page, js);
  if (way === "Pay by USSD") await page.getByLabel("Your bank").selectOption("737");
  await page.getByRole("button", { name: way }).click();
  await expect(page).toHaveURL(/\/payment\?reference=CCE-/);
  return new URL(page.url()).searchParams.get("reference")!;
}

const feeRow = (page: Page, reference: string) =>
  page.getByRole("row").filter({ hasText: reference });

for (const js of [true, false]) {
  test.describe(js ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled: js });

    test("a student who left a card checkout and paid later sees every payment whole, the attempt marked not used", async ({
      page,
      browser,
      request,
    }) => {
      const student = await freshStudent(browser, js ? 41 : 42);
      if (js) await signIn(page, student, "/payment");
      else await signInWithoutJavaScript(page, student, "/payment");
      const left = await leaveCardCheckout(page, js);
      const paidLater = await leaveCardCheckout(page, js);

      // Back from Paystack without paying: the verify page says so at the top.
      await page.goto(`/paystack/verify?reference=${left}`);
      if (!js) await page.getByRole("link", { name: "Check the payment now" }).click();
      await expectInViewport(page.getByText("We could not confirm this payment yet."));
      await expectPageFitsPhone(page);

      await page.goto("/history/payments");
      await expectPageFitsPhone(page);
      for (const reference of [left, paidLater]) {
        await expect(feeRow(page, reference)).toContainText("Pending");
        await expectWhollyShown(feeRow(page, reference).getByText("Pending"));
        await expectWhollyShown(
          feeRow(page, reference).getByRole("button", { name: `Requery ${reference}` }),
        );
      }
      // Before the fee is paid, Requery says what an unpaid attempt means, where it is seen.
      await feeRow(page, left)
        .getByRole("button", { name: /Requery/ })
        .click();
      await expectInViewport(
        page.getByText(/^Verification Failed: No money is recorded for this attempt/),
      );
      await expect(
        page.getByText(/^Verification Failed: No money is recorded for this attempt/),
      ).toContainText("If you left Paystack's page without paying, nothing was taken");

      // The student pays the second attempt at Paystack after all; the page still shows it pending.
      const paid = await request.post(`${SANDBOX_ORIGIN}/__sandbox/transactions/${paidLater}/pay`, {
        headers: { authorization: `Bearer ${SANDBOX_KEY}` },
      });
      expect(paid.ok()).toBe(true);
      await feeRow(page, paidLater)
        .getByRole("button", { name: /Requery/ })
        .click();
      await expectInViewport(page.getByText(`Payment ${paidLater} is verified.`));
      await expectPageFitsPhone(page);

      await expect(feeRow(page, paidLater)).toContainText("Success");
      await expectWhollyShown(feeRow(page, paidLater).getByText("Success"));
      await expectWhollyShown(feeRow(page, paidLater).getByRole("link", { name: /^Print/ }));
      await expect(feeRow(page, left)).toContainText("Not used — no money taken");
      await expect(feeRow(page, left)).not.toContainText("Pending");
      await expectWhollyShown(feeRow(page, left).getByText("Not used — no money taken"));
      await expect(feeRow(page, left).getByRole("button", { name: /Requery/ })).toHaveCount(0);

      await page.goto("/successful");
      await expectInViewport(page.getByRole("heading", { name: "Payment successful" }));
      await expectPageFitsPhone(page);
      await page.getByRole("link", { name: "Go to Payments Management now" }).tap();
      await expect(page).toHaveURL("/history/payments");
    });

    test("a student paying by transfer sees each check's answer at the top, and the USSD code dials when tapped", async ({
      page,
      browser,
    }) => {
      const student = await freshStudent(browser, js ? 43 : 44);
      if (js) await signIn(page, student, "/payment");
      else await signInWithoutJavaScript(page, student, "/payment");

      const ussd = await startOffline(page, js, "Pay by USSD");
      // The code, "#" and all, goes to the dialler: a bare "#" would end the number there.
      const code = page.getByTestId("ussd-code");
      await expect(code).toHaveText(/^\*737\*33\*4\*\d{5}#$/);
      await expect(code).toHaveAttribute(
        "href",
        `tel:${(await code.textContent())!.replace("#", "%23")}`,
      );
      await expectPageFitsPhone(page);

      const transfer = await startOffline(page, js, "Pay by bank transfer");
      await page.getByRole("button", { name: "I have paid — check now" }).click();
      await expectInViewport(page.getByTestId("payment-message"));
      await expect(page.getByTestId("payment-message")).toContainText(
        "Paystack has not received this payment yet",
      );
      await expectPageFitsPhone(page);

      // The bank sends the money while the page still shows the account.
      await page.goto(`/payment?reference=${transfer}`);
      const bank = await page.context().newPage();
      await bank.goto(`${SANDBOX_ORIGIN}/simulate/${transfer}`);
      await bank.getByRole("button", { name: "The transfer arrives" }).click();
      await expect(bank.getByRole("status")).toContainText(
        "The signed charge.success webhook was delivered to the portal.",
      );
      await bank.close();
      await page.getByRole("button", { name: "I have paid — check now" }).click();
      await expectInViewport(page.getByTestId("offline-status"));
      await expect(page.getByTestId("offline-status")).toContainText("Payment received.");
      await expectPageFitsPhone(page);

      await page.goto("/history/payments");
      await expectPageFitsPhone(page);
      await expectWhollyShown(feeRow(page, transfer).getByText("Success"));
      await expectWhollyShown(feeRow(page, transfer).getByRole("link", { name: /^Print/ }));
      await expectWhollyShown(feeRow(page, ussd).getByText("Not used — no money taken"));
      await expect(feeRow(page, ussd).getByRole("button", { name: /Requery/ })).toHaveCount(0);
    });
  });
}

test.describe("without JavaScript, the returning student's seeded payments", () => {
  test.use({ javaScriptEnabled: false });

  test("are cards on a phone, the hostel payment too, with the pager in reach", async ({
    page,
  }) => {
    await signInWithoutJavaScript(page, DEMO.returning, "/history/payments");
    await expectPageFitsPhone(page);
    const fee = feeRow(page, "CCE-20231009-4D7KQ2M9XW3P");
    await expectWhollyShown(fee.getByText("Success"));
    await expectWhollyShown(fee.getByRole("link", { name: /^Print/ }));
    const hostel = feeRow(page, "Queen Amina Hall — 4-bed room");
    await expectWhollyShown(hostel.getByText(/^(Success|Paid)$/));
    await expectWhollyShown(hostel.getByRole("link", { name: /^Print/ }));
    await expectWhollyShown(page.getByRole("button", { name: "Show", exact: true }));
    await expectWhollyShown(page.getByRole("navigation", { name: "Payments pages" }));
    await fee.getByRole("link", { name: /^Print/ }).tap();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "School Fees Payment Slip CCE-20231009-4D7KQ2M9XW3P",
    );
    await expectPageFitsPhone(page);
  });
});

test.describe("on a wide screen", () => {
  test.use({
    viewport: { width: 1280, height: 800 },
    screen: { width: 1280, height: 800 },
    hasTouch: false,
    isMobile: false,
    deviceScaleFactor: 1,
    javaScriptEnabled: false,
  });

  test("the payments stay a table with its column headers", async ({ page }) => {
    await signInWithoutJavaScript(page, DEMO.returning, "/history/payments");
    await expect(page.getByRole("columnheader", { name: "Status" }).first()).toBeVisible();
    const fee = feeRow(page, "CCE-20231009-4D7KQ2M9XW3P");
    const [reference, print] = [
      await fee.getByText("CCE-20231009-4D7KQ2M9XW3P", { exact: true }).boundingBox(),
      await fee.getByRole("link", { name: /^Print/ }).boundingBox(),
    ];
    // One line per payment: the reference and its Print button side by side.
    expect(Math.abs(reference!.y - print!.y)).toBeLessThan(print!.height);
  });
});
