import { expect, test, type Page } from "@playwright/test";
import { freshStudent } from "./fresh-student.ts";
import { PORTAL_ORIGIN, PORTAL_PORT, waitForIslands } from "./support.ts";

// Paying school fees through Remita (decision 189): an RRR, paid online on the Remita sandbox's
// page (PORT + 7), or printed on an invoice and paid at a bank, credited with nobody pressing
// anything, or cancelled. Each journey has its own new student (numbers 181–189).

const REMITA_ORIGIN = `http://localhost:${PORTAL_PORT + 7}`;
const GROUPED_RRR = /^\d{4}-\d{4}-\d{4}$/;

async function signInAs(page: Page, who: { phone: string; password: string }) {
  await page.goto("/login?next=%2Fpayment");
  await page.getByLabel("Phone number").fill(who.phone);
  await page.getByLabel("Password", { exact: true }).fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL("/payment");
}

/** Chooses a fee and waits for its price: by the GET form without scripts, at once with them. */
async function chooseFee(page: Page, js: boolean, [option, level, session]: string[]) {
  if (js) await waitForIslands(page);
  await page.getByLabel("Payment category").selectOption(option!);
  await page.getByLabel("Level").selectOption(level!);
  await page.getByLabel("Session").selectOption(session!);
  if (!js) await page.getByRole("button", { name: "Show the amount" }).click();
  await expect(page.getByTestId("fee-amount")).toBeVisible();
}

/** Presses Pay with Remita and answers the RRR page's reference and RRR (twelve digits). */
async function startRemita(page: Page) {
  await page.getByRole("button", { name: "Pay with Remita" }).click();
  await expect(page).toHaveURL(/\/payment\?reference=CCE-/);
  await expect(page.getByRole("heading", { name: "Pay with Remita" })).toBeVisible();
  const grouped = (await page.getByTestId("rrr").textContent())!;
  expect(grouped).toMatch(GROUPED_RRR);
  return {
    reference: new URL(page.url()).searchParams.get("reference")!,
    rrr: grouped.replaceAll("-", ""),
  };
}

test("a student pays an RRR online on Remita's page and is credited at once", async ({
  page,
  browser,
}) => {
  await signInAs(page, await freshStudent(browser, 181));
  await chooseFee(page, true, ["full", "100", "2024/2025"]);
  const { reference, rrr } = await startRemita(page);
  await expect(page.getByTestId("rrr-amount")).toHaveText("₦120,000");
  await expect(page.getByText("Full Payment, 100 level, 2024/2025 school fees")).toBeVisible();

  await page.getByRole("button", { name: "Pay online on Remita" }).click();
  await expect(page).toHaveURL(`${REMITA_ORIGIN}/remita/ecomm/finalize.reg`);
  await page.getByRole("button", { name: "Pay ₦120,000.00" }).click();

  await expect(page).toHaveURL("/successful");
  await expect(page).toHaveURL("/history/payments", { timeout: 10_000 });
  const row = page.getByRole("row").filter({ hasText: reference });
  await expect(row).toContainText("Success");
  await expect(row.getByTestId("history-rrr")).toHaveText(
    `Remita RRR ${rrr.match(/\d{4}/g)!.join("-")}`,
  );
  await page.goto("/");
  await expect(page.getByRole("region", { name: "School Fee" })).toContainText(
    "Paid (Full Payment)",
  );
});

test("a declined card and an abandoned page leave the RRR payable, and it is then paid", async ({
  page,
  browser,
}) => {
  await signInAs(page, await freshStudent(browser, 182));
  await chooseFee(page, true, ["part", "100", "2024/2025"]);
  const { reference, rrr } = await startRemita(page);
  const stillPayable = new RegExp(
    `^Remita has not received payment for RRR ${rrr.match(/\d{4}/g)!.join("-")} yet\\. It stays payable`,
  );

  for (const leave of ["Decline the card", "Abandon"]) {
    await page.getByRole("button", { name: "Pay online on Remita" }).click();
    await page.getByRole("button", { name: leave }).click();
    await expect(page).toHaveURL(/\/remita\/verify\?/);
    await expect(page.getByTestId("verify-failure")).toHaveText(stillPayable);
    await page.getByRole("link", { name: "the Payment page" }).click();
    await expect(page).toHaveURL(`/payment?reference=${reference}`);
    await expect(page.getByTestId("rrr")).toBeVisible();
  }
  await page.goto("/history/payments");
  const row = page.getByRole("row").filter({ hasText: reference });
  await expect(row).toContainText("Pending");
  await expect(row.getByRole("link", { name: /^Invoice/ })).toBeVisible();

  await row.getByRole("link", { name: /^Pay/ }).click();
  await page.getByRole("button", { name: "Pay online on Remita" }).click();
  await page.getByRole("button", { name: "Pay ₦72,000.00" }).click();
  await expect(page).toHaveURL("/successful");
  await page.goto("/history/payments");
  await expect(page.getByRole("row").filter({ hasText: reference })).toContainText("Success");
  await expect(
    page
      .getByRole("row")
      .filter({ hasText: reference })
      .getByRole("link", { name: /^Invoice/ }),
  ).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a student prints the invoice, pays at a bank, and the reconciler credits it with nobody pressing anything", async ({
    page,
    browser,
    request,
  }) => {
    await signInAs(page, await freshStudent(browser, 183));
    await chooseFee(page, false, ["full", "100", "2024/2025"]);
    const { reference, rrr } = await startRemita(page);
    const grouped = rrr.match(/\d{4}/g)!.join("-");

    await page.getByRole("link", { name: "Print invoice to pay at a bank" }).click();
    await expect(page).toHaveURL(`/invoice/remita/${reference}`);
    await expect(page.getByRole("heading", { name: "Payment Invoice" })).toBeVisible();
    await expect(page.getByTestId("invoice-rrr")).toHaveText(grouped);
    await expect(page.getByTestId("invoice-amount")).toHaveText("₦120,000");
    await expect(
      page.getByText("Pay at any bank branch or on Remita's website with this RRR."),
    ).toBeVisible();
    await expect(page.getByRole("row", { name: /Matriculation Number/ })).toContainText(
      "COE/2024/FEE/1083",
    );
    await expect(page.getByRole("row", { name: /^Fee/ })).toContainText(
      "Full Payment, 100 level, 2024/2025 school fees",
    );
    await expect(page.getByRole("img", { name: /QR code/ })).toBeVisible();
    const pdf = (await page.pdf({ preferCSSPageSize: true })).toString("latin1");
    expect(pdf.match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1);
    const check = (await page.locator("[data-verify-link]").getAttribute("href"))!;
    expect(check.startsWith(`${PORTAL_ORIGIN}/verify/invoice/`)).toBe(true);

    // The teller checks the invoice: genuine, not paid yet. Anyone can, without signing in.
    const teller = await browser.newPage({ javaScriptEnabled: false });
    await teller.goto(check);
    await expect(teller.getByRole("status")).toContainText("Genuine invoice, not paid yet.");

    // At the bank, with Remita's notification lost on the way: only the reconciler can find it.
    await teller.goto(`${REMITA_ORIGIN}/simulate/bank/${rrr}`);
    await teller.getByLabel("Send Remita's notification to the portal").uncheck();
    await teller.getByRole("button", { name: "Pay at the bank" }).click();
    await expect(teller.getByRole("status")).toContainText("Paid.");

    await page.goto("/history/payments");
    await expect(page.getByRole("row").filter({ hasText: reference })).toContainText("Pending");
    // The reconciler's scheduled run, now rather than when the clock says (decision 189).
    const run = await request.post("/api/dev/reconcile-payments", {
      headers: { origin: PORTAL_ORIGIN },
    });
    expect(run.ok()).toBe(true);

    await page.goto("/");
    await expect(page.getByRole("region", { name: "School Fee" })).toContainText(
      "Paid (Full Payment)",
    );
    await page.goto("/history/payments");
    const row = page.getByRole("row").filter({ hasText: reference });
    await expect(row).toContainText("Success");
    await row.getByRole("link", { name: /^Print/ }).click();
    await expect(page.getByRole("row", { name: /Payment Gateway/ })).toContainText("Remita");
    await expect(page.getByRole("row", { name: /^RRR/ })).toContainText(grouped);

    await teller.goto(check);
    await expect(teller.getByRole("status")).toContainText("Genuine invoice, paid.");
    await teller.close();
  });

  test("a student cancels an RRR they will not pay, after a confirmation, and no bank can take it", async ({
    page,
    browser,
  }) => {
    await signInAs(page, await freshStudent(browser, 185));
    await chooseFee(page, false, ["part", "100", "2024/2025"]);
    const { reference, rrr } = await startRemita(page);
    const grouped = rrr.match(/\d{4}/g)!.join("-");

    await page.getByRole("button", { name: "Cancel this RRR" }).click();
    await expect(page.getByRole("heading", { name: `Cancel RRR ${grouped}?` })).toBeVisible();
    // Keeping it changes nothing.
    await page.getByRole("link", { name: "No, keep it" }).click();
    await expect(page).toHaveURL(`/payment?reference=${reference}`);
    await page.getByRole("button", { name: "Cancel this RRR" }).click();
    await page.getByRole("button", { name: "Yes, cancel this RRR" }).click();

    await expect(page).toHaveURL(`/payment?reference=${reference}`);
    await expect(page.getByTestId("offline-status")).toContainText(
      `You cancelled this RRR ${grouped} on`,
    );
    await expect(page.getByTestId("rrr")).toHaveCount(0);
    await page.goto("/history/payments");
    const row = page.getByRole("row").filter({ hasText: reference });
    await expect(row).toContainText("it can no longer be paid online or at a bank");
    await expect(row.getByRole("link", { name: /^Invoice/ })).toHaveCount(0);

    const teller = await browser.newPage({ javaScriptEnabled: false });
    await teller.goto(`${REMITA_ORIGIN}/simulate/bank/${rrr}`);
    await expect(teller.getByText("Deactivated: it can no longer be paid")).toBeVisible();
    await expect(teller.getByRole("button", { name: "Pay at the bank" })).toHaveCount(0);
    await teller.close();
  });
});
