import { expect, test, type Page } from "@playwright/test";
import { freshStudent } from "./fresh-student.ts";
import { PORTAL_ORIGIN, SANDBOX_ORIGIN, waitForIslands } from "./support.ts";

// Bank transfer and USSD need neither a card, nor a smartphone, nor JavaScript. Each journey runs
// without and with scripts, each with its own new student (a fixed number per journey, so a retry
// signs in the same one), so the order of journeys does not matter.

async function signInAs(page: Page, who: { phone: string; password: string }) {
  await page.goto("/login?next=%2Fpayment");
  await page.getByLabel("Phone number").fill(who.phone);
  await page.getByLabel("Password", { exact: true }).fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL("/payment");
}

/** Chooses a fee and waits for its price: by the GET form without scripts, at once with them. */
async function chooseFee(
  page: Page,
  js: boolean,
  [option, level, session]: string[],
  price: string,
) {
  if (js) await waitForIslands(page);
  await page.getByLabel("Payment category").selectOption(option!);
  await page.getByLabel("Level").selectOption(level!);
  await page.getByLabel("Session").selectOption(session!);
  if (!js) {
    await page.getByRole("button", { name: "Show the amount" }).click();
    await expect(page).toHaveURL(/\/payment\?payment_option=/);
  }
  await expect(page.getByTestId("fee-amount")).toHaveText(price);
}

/** The reference the page shows after a charge was made (the address carries it too). */
async function chargedReference(page: Page) {
  await expect(page).toHaveURL(/\/payment\?reference=CCE-/);
  return new URL(page.url()).searchParams.get("reference")!;
}

/** Plays the student's bank at the sandbox: the transfer or USSD payment arrives, the webhook is sent. */
async function payAtSandbox(page: Page, reference: string, button: string, naira?: string) {
  await page.goto(`${SANDBOX_ORIGIN}/simulate/${reference}`);
  if (naira) await page.getByLabel("Amount that arrives (naira)").fill(naira);
  await page.getByRole("button", { name: button }).click();
  await expect(page.getByRole("status")).toContainText(
    "The signed charge.success webhook was delivered to the portal.",
  );
}

for (const js of [false, true]) {
  test.describe(js ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled: js });

    test("a fresh student pays the full fee by bank transfer and the dashboard says Paid (Full Payment)", async ({
      page,
      browser,
    }) => {
      await signInAs(page, await freshStudent(browser, js ? 11 : 1));
      await expect(page.getByRole("region", { name: "Student Information" })).toContainText(
        "Not Paid",
      );
      await chooseFee(page, js, ["full", "100", "2024/2025"], "₦120,000");
      await page.getByRole("button", { name: "Pay by bank transfer" }).click();
      const reference = await chargedReference(page);
      await expect(page.getByRole("heading", { name: "Pay by bank transfer" })).toBeVisible();
      await expect(page.getByTestId("account-number")).toHaveText(/^\d{10}$/);
      await expect(page.getByTestId("transfer-amount")).toHaveText("₦120,000");
      await expect(page.getByText("Valid until")).toBeVisible();

      await payAtSandbox(page, reference, "The transfer arrives");
      await page.goto(`/payment?reference=${reference}`);
      await expect(page.getByTestId("offline-status")).toContainText("Payment received.");
      await page.goto("/");
      await expect(page.getByRole("region", { name: "School Fee" })).toContainText(
        "Paid (Full Payment)",
      );
      await page.goto("/history/payments");
      await expect(page.getByRole("row").filter({ hasText: reference })).toContainText("Success");
    });

    test("a fresh student pays the first installment by USSD and checks it with the button", async ({
      page,
      browser,
    }) => {
      await signInAs(page, await freshStudent(browser, js ? 12 : 2));
      await chooseFee(page, js, ["part", "100", "2024/2025"], "₦72,000");
      await page.getByLabel("Your bank").selectOption("737");
      await page.getByRole("button", { name: "Pay by USSD" }).click();
      const reference = await chargedReference(page);
      await expect(page.getByTestId("ussd-code")).toHaveText(/^\*737\*33\*4\*\d{5}#$/);

      // Checked before the bank confirms: not yet, said on the page; the code is still shown.
      await page.getByRole("button", { name: "I have paid — check now" }).click();
      await expect(page.getByTestId("payment-message")).toContainText(
        "Paystack has not received this payment yet",
      );
      await expect(page.getByTestId("ussd-code")).toBeVisible();

      await payAtSandbox(page, reference, "Confirm the USSD payment");
      await page.goto(`/payment?reference=${reference}`);
      await expect(page.getByTestId("offline-status")).toContainText("Payment received.");
      await page.goto("/");
      await expect(page.getByRole("region", { name: "School Fee" })).toContainText(
        "Paid (Part Payment)",
      );
    });

    test("a transfer of the wrong amount is not credited and is kept as a mismatch", async ({
      page,
      browser,
    }) => {
      await signInAs(page, await freshStudent(browser, js ? 13 : 3));
      await chooseFee(page, js, ["latefees", "100", "2024/2025"], "₦5,000");
      await page.getByRole("button", { name: "Pay by bank transfer" }).click();
      const reference = await chargedReference(page);
      await payAtSandbox(page, reference, "The transfer arrives", "500");

      await page.goto(`/payment?reference=${reference}`);
      await expect(page.getByTestId("offline-status")).toContainText(
        "Mismatch: the amount received is not the fee, so it was not credited.",
      );
      await page.goto("/history/payments");
      const row = page.getByRole("row").filter({ hasText: reference });
      await expect(row).toContainText("Mismatch");
      await expect(row).toContainText("₦500"); // what arrived, not the fee

      // Requery gives the server's own reason, not "not confirmed yet", with or without scripts.
      await row.getByRole("button", { name: /Requery/ }).click();
      await expect(
        page.getByText(
          /^Verification Failed: This payment was received but could not be credited automatically/,
        ),
      ).toContainText(`Contact the bursary with reference ${reference}.`);
    });
  });
}

test.describe("paying by card without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  // The card button posts the form; the answer must take the browser on to Paystack's checkout.
  // A 303 there was stopped by the page's form-action policy without a word, leaving a pending
  // payment for every press; the same happens to a student who presses before the script loads.
  test("the card button opens Paystack's checkout for the fee, once", async ({ page, browser }) => {
    await signInAs(page, await freshStudent(browser, 4));
    await chooseFee(page, false, ["full", "100", "2024/2025"], "₦120,000");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await expect(page).toHaveURL(new RegExp(`^${SANDBOX_ORIGIN}/checkout/`));
    await expect(page.locator("body")).toContainText("₦120,000.00");
    await page.goto("/history/payments");
    await expect(page.getByRole("row").filter({ hasText: "CCE-" })).toHaveCount(1);
    await expect(page.getByRole("row").filter({ hasText: "CCE-" })).toContainText("Pending");
  });
});

test.describe("forged or stale posts to the Payment page", () => {
  test.use({ javaScriptEnabled: false });

  test("each gets a clear message on the page and changes nothing", async ({ page, browser }) => {
    await signInAs(page, await freshStudent(browser, 99));
    await chooseFee(page, false, ["full", "100", "2024/2025"], "₦120,000");
    const ownId = (await page.locator("input[name=student_id]").first().getAttribute("value"))!;
    const post = (fields: Record<string, string>) =>
      page.request.post("/payment", {
        headers: { origin: PORTAL_ORIGIN },
        form: {
          student_id: ownId,
          payment_option: "full",
          payment_level: "100",
          payment_session: "2024/2025",
          ...fields,
        },
        maxRedirects: 0,
      });
    const refused = async (fields: Record<string, string>, status: number, message: string) => {
      const answer = await post(fields);
      expect(answer.status()).toBe(status);
      expect(await answer.text()).toContain(message);
    };

    await refused(
      { action: "bank_transfer", student_id: String(Number(ownId) + 1) },
      403,
      "You can only see and change your own record.",
    );
    await refused(
      { action: "ussd", payment_level: "200" },
      400,
      "You are in 100 level; you cannot pay 200 level fees.",
    );
    await refused({ action: "ussd" }, 400, "Choose the bank whose USSD code you will dial.");
    await refused({ action: "refund" }, 400, "Choose a way to pay.");

    // An amount field is ignored: the account is for the fee the schedule sets.
    const tampered = await post({ action: "bank_transfer", amount: "100", amount_kobo: "10000" });
    expect(tampered.status()).toBe(303);
    await page.goto(tampered.headers().location!);
    await expect(page.getByTestId("transfer-amount")).toHaveText("₦120,000");
    const reference = new URL(page.url()).searchParams.get("reference")!;
    await payAtSandbox(page, reference, "The transfer arrives");

    // The same post again once paid: the spec's 'Payment already made', and no new charge.
    await page.goto("/history/payments");
    const before = await page.getByRole("row").filter({ hasText: "CCE-" }).count();
    await refused({ action: "bank_transfer" }, 200, "Payment already made");
    await refused({ action: "card" }, 200, "Payment already made");
    await page.goto("/history/payments");
    await expect(page.getByRole("row").filter({ hasText: "CCE-" })).toHaveCount(before);
  });
});
