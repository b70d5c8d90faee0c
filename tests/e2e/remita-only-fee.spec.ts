import { expect, test, type Page } from "@playwright/test";
import { freshStudent } from "./fresh-student.ts";
import { PORTAL_ORIGIN, waitForIslands } from "./support.ts";
import { signInWithAuthenticator } from "./staff-sign-in.ts";

// A fee the bursar takes through Remita only (decision 189): its students are never offered
// Paystack's card, transfer or USSD, with or without JavaScript, and a forged post is refused.
// The 2020/2021 100-level full fee is one no other journey pays.

const FEE = ["full", "100", "2020/2021"] as const;

async function signInAs(page: Page, who: { phone: string; password: string }) {
  await page.goto("/login?next=%2Fpayment");
  await page.getByLabel("Phone number").fill(who.phone);
  await page.getByLabel("Password", { exact: true }).fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL("/payment");
}

test("the bursar takes a fee through Remita only, and its student is never offered Paystack", async ({
  page,
  browser,
}) => {
  await signInWithAuthenticator(page, "bursar@college.example");
  await page.goto("/staff/fees?session=2020%2F2021&level=100&programme=all");
  const row = page.getByRole("row", { name: /2020\/2021 All programmes 100 All Full Payment/ });
  await row.getByRole("link", { name: /Edit|Replace/ }).click();
  const gateways = page.getByRole("form", { name: "Gateways for this fee" });
  await gateways.getByLabel("Remita").check();
  await gateways.getByRole("button", { name: "Save gateways" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Students can pay this fee through Remita only.",
  );
  await expect(row).toContainText("Remita only");

  const student = await freshStudent(browser, 184);
  for (const js of [true, false]) {
    const context = await browser.newContext({ baseURL: PORTAL_ORIGIN, javaScriptEnabled: js });
    const pay = await context.newPage();
    await signInAs(pay, student);
    if (js) await waitForIslands(pay);
    await pay.getByLabel("Payment category").selectOption(FEE[0]);
    await pay.getByLabel("Level").selectOption(FEE[1]);
    await pay.getByLabel("Session").selectOption(FEE[2]);
    if (!js) await pay.getByRole("button", { name: "Show the amount" }).click();
    await expect(pay.getByTestId("fee-amount")).toBeVisible();
    await expect(pay.getByRole("button", { name: "Pay with Remita" })).toBeVisible();
    for (const paystack of ["Proceed to payment", "Pay by bank transfer", "Pay by USSD"]) {
      await expect(pay.getByRole("button", { name: paystack })).toHaveCount(0);
    }

    // The same fee through Paystack, posted by hand: refused, and no payment made.
    const studentId = (await pay.locator("input[name=student_id]").first().getAttribute("value"))!;
    const forged = await pay.request.post("/payment", {
      headers: { origin: PORTAL_ORIGIN },
      form: {
        action: "bank_transfer",
        student_id: studentId,
        payment_option: FEE[0],
        payment_level: FEE[1],
        payment_session: FEE[2],
      },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(400);
    expect(await forged.text()).toContain(
      "This fee is paid through Remita only: choose Pay with Remita.",
    );
    await pay.goto("/history/payments");
    await expect(pay.getByRole("row").filter({ hasText: "CCE-" })).toHaveCount(0);
    await context.close();
  }
});
