import { expect, test } from "@playwright/test";
import { DEMO, mailInOutbox, PORTAL_ORIGIN, SANDBOX_ORIGIN, signIn } from "./support.ts";
import { signInWithAuthenticator } from "./staff-sign-in.ts";

const INSTITUTION = { name: "University of Lagos Admissions", email: "admissions@unilag.example" };

// Chiamaka has a published semester (server/results/seed.ts); the demo's transcript fee is ₦5,000
// (server/payments/seed.ts). The exams officer signs in with an authenticator, enrolled on first use.
test("a student cancels an unpaid request, asks for a transcript for an institution, pays in the sandbox, the exams office releases it, and a signed-out visitor opens and checks it", async ({
  page,
  browser,
}) => {
  await signIn(page, DEMO.returning, "/");
  await page
    .getByRole("complementary", { name: "Main menu" })
    .getByRole("link", { name: "Transcript" })
    .click();
  await expect(page).toHaveURL("/transcript");
  await expect(page.getByTestId("transcript-fee")).toHaveText("₦5,000");

  // A request to herself, cancelled before paying: asked first, then listed as cancelled.
  await page.getByRole("button", { name: "Request transcript" }).click();
  await expect(page.getByTestId("transcript-message")).toContainText("Transcript requested");
  const mine = page.getByTestId("transcript-request").filter({ hasText: "Myself" });
  await mine
    .and(page.locator("[data-state=awaiting_payment]"))
    .getByRole("button", { name: "Cancel request…" })
    .click();
  await expect(
    page.getByRole("heading", { name: "Cancel this transcript request?" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Yes, cancel the request" }).click();
  await expect(page.getByTestId("transcript-message")).toHaveText("Transcript request cancelled.");
  await expect(mine.first()).toHaveAttribute("data-state", "cancelled");
  await expect(mine.first()).toContainText("Cancelled");

  await page.getByRole("radio", { name: "An institution" }).check();
  await page.getByRole("button", { name: "Request transcript" }).click();
  // Without the institution's details the form comes back with each field's reason.
  await expect(page.getByTestId("transcript-message")).toContainText("check the details marked");
  await expect(page.getByLabel("Institution's name")).toHaveAccessibleDescription(
    /Enter the institution's name\./,
  );
  await page.getByLabel("Institution's name").fill(INSTITUTION.name);
  await page.getByLabel("Institution's e-mail address").fill(INSTITUTION.email);
  await page.getByRole("button", { name: "Request transcript" }).click();
  await expect(page.getByTestId("transcript-message")).toContainText("Transcript requested");
  const request = page.getByTestId("transcript-request").filter({ hasText: INSTITUTION.email });
  await expect(request).toHaveAttribute("data-state", "awaiting_payment");

  await request.getByRole("button", { name: "Pay ₦5,000", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`^${SANDBOX_ORIGIN}/checkout/`));
  await page.getByRole("button", { name: "Pay ₦5,000.00" }).click();
  await expect(page).toHaveURL(/\/transcript\?/);
  await expect(page.getByTestId("transcript-message")).toContainText("Payment received");
  await expect(request).toHaveAttribute("data-state", "awaiting_release");
  await expect(request).toContainText("Paid – awaiting release");

  // The exams office releases it, behind a confirmation.
  const office = await browser.newContext({ baseURL: PORTAL_ORIGIN });
  const officer = await office.newPage();
  await signInWithAuthenticator(officer, "exams@college.example");
  await officer
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Transcripts" })
    .click();
  await officer
    .getByRole("row")
    .filter({ hasText: INSTITUTION.email })
    .getByRole("button", { name: /^Release the transcript of OKONKWO/ })
    .click();
  await expect(officer.getByRole("heading", { name: "Release this transcript?" })).toBeVisible();
  await officer.getByRole("button", { name: "Release and send" }).click();
  await expect(officer.getByRole("status")).toContainText(
    `its link is on its way to ${INSTITUTION.email}`,
  );
  await office.close();

  await page.reload();
  await expect(request).toHaveAttribute("data-state", "released");
  const reference = (await request.getByTestId("transcript-reference").textContent())!;
  expect(reference).toMatch(/^TR-\d{4}-[0-9A-Z]{10}$/);

  // A signed-out visitor: the institution opening the mail's link, then checking the reference.
  const visitor = await browser.newContext({ baseURL: PORTAL_ORIGIN });
  const reader = await visitor.newPage();
  const mail = await mailInOutbox(reader, `to ${INSTITUTION.email}`, reference);
  const link = (await mail
    .getByRole("link")
    .filter({ hasText: "/transcripts/" })
    .first()
    .getAttribute("href"))!;
  await reader.goto(link);
  await expect(reader.getByRole("heading", { name: "Academic Transcript" })).toBeVisible();
  await expect(reader.getByTestId("transcript-reference")).toHaveText(reference);
  await expect(reader.getByTestId("transcript-name")).toHaveText("OKONKWO, Chiamaka Grace");
  await expect(reader.getByRole("region", { name: "2023/2024 First Semester" })).toBeVisible();
  await expect(reader.getByTestId("transcript-class")).not.toHaveText("—");
  await expect(reader.getByRole("img", { name: /QR code/ })).toBeVisible();
  await expect(reader.locator("[data-verify-link]")).toHaveAttribute("href", link);

  const altered = await reader.goto(`${link.slice(0, -3)}xyz`);
  expect(altered?.status()).toBe(404);
  await expect(reader.getByText("Not genuine.")).toBeVisible();

  await reader.getByRole("link", { name: "Check a transcript by its reference" }).click();
  await reader.getByLabel("Transcript reference").fill(reference);
  await reader.getByLabel("Student's matric number").fill("CCE/2023/BIO/0042");
  await reader.getByRole("button", { name: "Check" }).click();
  await expect(reader.getByTestId("check-outcome")).toContainText("Genuine.");
  await expect(reader.getByText("OKONKWO, Chiamaka Grace")).toBeVisible();

  await reader.getByLabel("Student's matric number").fill("CCE/2023/BIO/0043");
  await reader.getByRole("button", { name: "Check" }).click();
  await expect(reader.getByTestId("check-outcome")).toContainText("Not genuine");
  await visitor.close();
});
