import { expect, test } from "@playwright/test";
import { signInWithAuthenticator } from "./staff-sign-in.ts";

// The whole journey is plain forms: the fee's page keeps its split without JavaScript.
test.use({ javaScriptEnabled: false });

test("the bursar splits a fee between two accounts on Remita without JavaScript; the split must add up, and holds the fee's amount until removed", async ({
  page,
}) => {
  await signInWithAuthenticator(page, "bursar@college.example");
  // An old session's late fee (₦5,000): no other journey pays or edits it.
  await page.goto("/staff/fees?session=2019%2F2020&level=500&programme=all");
  await page.getByRole("link", { name: "Not split: Late Fees, 500 level, 2019/2020" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Late Fees, 500 level, 2019/2020",
  );
  await expect(page.getByText("This fee is not split.")).toBeVisible();

  const account = (n: number) => page.getByRole("group", { name: `Account ${n}` });
  await account(1).getByLabel("Beneficiary name").fill("Crownfield College TSA");
  await account(1).getByLabel("Account number").fill("0360883515");
  await account(1).getByLabel("Bank code").fill("000");
  await account(1).getByLabel("Amount (naira)").fill("3,500");
  await account(1).getByLabel("Bears Remita's charge").check();
  await account(2).getByLabel("Beneficiary name").fill("Campus ICT Services Ltd");
  await account(2).getByLabel("Account number").fill("0123456789");
  await account(2).getByLabel("Bank code").fill("057");
  await account(2).getByLabel("Amount (naira)").fill("1,000");
  await page.getByRole("button", { name: "Save the split" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "The accounts add up to ₦4,500.00, but the fee is ₦5,000.00 (₦500.00 short). A split must add up to the fee exactly.",
  );
  // Nothing typed is lost: the bursar corrects one amount.
  await expect(account(2).getByLabel("Account number")).toHaveValue("0123456789");
  await account(1).getByLabel("Amount (naira)").fill("4,000");
  await page.getByRole("button", { name: "Save the split" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "The fee's ₦5,000.00 is now split between 2 accounts on Remita, for RRRs generated from now on.",
  );
  const split = page.getByRole("table", { name: "Accounts this fee is split between" });
  await expect(split.getByRole("row")).toHaveCount(3);
  await expect(split.getByRole("row").nth(1)).toContainText(
    "Crownfield College TSA0360883515000₦4,000.00Yes",
  );

  // A ten-digit account is ten digits: a bad one is named beside its field.
  await account(2).getByLabel("Account number").fill("12345");
  await page.getByRole("button", { name: "Save the split" }).click();
  await expect(page.getByRole("alert")).toContainText(
    "Account 2: An account number is the 10 digits",
  );
  await expect(account(2).getByLabel("Account number")).toHaveAttribute("aria-invalid", "true");

  // The schedule shows the split, and the fee's amount cannot change under it.
  await page.getByRole("link", { name: "← Fee schedule" }).click();
  await page.goto("/staff/fees?session=2019%2F2020&level=500&programme=all");
  const row = page.getByRole("row", { name: /2019\/2020 All programmes 500 All Late Fees/ });
  await expect(row).toContainText("2 accounts");
  await row.getByRole("link", { name: "Edit" }).click();
  await page.locator("#edit").getByLabel("Amount (naira)").fill("6,000");
  await page.getByRole("button", { name: "Save amount" }).click();
  await expect(page.getByRole("alert")).toContainText(
    "This fee is split between accounts on Remita, and the split must add up to the fee.",
  );

  await row.getByRole("link", { name: /2 accounts/ }).click();
  await page.getByRole("button", { name: "Remove the split" }).click();
  // The first click asks, naming the accounts that would no longer be paid; nothing changed yet.
  const asking = page.getByRole("region", { name: "Remove this fee's split?" });
  await expect(asking).toContainText("Crownfield College TSA");
  await expect(
    page.getByRole("table", { name: "Accounts this fee is split between" }),
  ).toBeVisible();
  await asking.getByRole("button", { name: "Yes, remove the split" }).click();
  await expect(page.getByRole("status")).toContainText("The fee is no longer split");
  await expect(page.getByText("This fee is not split.")).toBeVisible();
});
