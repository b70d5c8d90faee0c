import { expect, test, type Page } from "@playwright/test";
import { freshStudent } from "./fresh-student.ts";
import { pdfPageTexts } from "./pdf-text.ts";
import { PORTAL_ORIGIN, SANDBOX_ORIGIN, signIn, waitForIslands } from "./support.ts";

// Issue 32's exam card (decision 181): issued for a semester once the session's fee covers it and
// the adviser approved its registration; until then the page names every gap and where to fix it.
// A fresh 100-level student of its own, so no other journey's payments or registrations count.

const ADVISER = { email: "adviser@college.example", password: "demo1234" };

async function openExamCard(page: Page) {
  await page.goto("/");
  await page
    .getByRole("complementary", { name: "Main menu" })
    .getByRole("link", { name: "Exam Card" })
    .click({ force: true });
  await expect(page).toHaveURL("/exam-card");
  await expect(page.getByRole("heading", { name: "Exam Card", level: 1 })).toBeVisible();
}

async function registerFirstSemester(page: Page, codes: string[]) {
  await page.goto("/course-reg");
  await waitForIslands(page);
  await page.getByLabel("Semester", { exact: true }).selectOption({ label: "FIRST" });
  for (const code of codes) {
    await page.getByLabel("Search courses", { exact: true }).fill(code);
    await page.getByRole("checkbox", { name: `Select ${code}` }).check();
  }
  await page.getByRole("button", { name: "Register Courses" }).click();
  await expect(page).toHaveURL(/registered=1$/);
}

async function payFullFee(page: Page) {
  await page.goto("/payment");
  await waitForIslands(page);
  await page.getByLabel("Payment category").selectOption("full");
  await page.getByLabel("Level").selectOption("100");
  await page.getByLabel("Session").selectOption("2024/2025");
  await page.getByRole("button", { name: "Proceed to payment" }).click();
  await expect(page).toHaveURL(new RegExp(`^${SANDBOX_ORIGIN}/checkout/`));
  await page.getByRole("button", { name: /^Pay ₦/ }).click();
  await expect(page).toHaveURL("/history/payments", { timeout: 10_000 });
}

test("a student is told what her exam card lacks, then prints it; a signed-out visitor checks it is genuine", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const student = await freshStudent(browser, 91);
  await signIn(page, student, "/");

  await test.step("nothing paid or registered: both named, each with its link", async () => {
    await openExamCard(page);
    const missing = page.getByTestId("exam-card-missing");
    await expect(missing).toContainText("No exam card yet for the First Semester, 2024/2025");
    await expect(missing.getByRole("listitem")).toHaveCount(2);
    await expect(missing.locator("[data-gap=fee_not_paid]")).toContainText(
      "Your 2024/2025 school fees are not paid.",
    );
    await expect(missing.getByRole("link", { name: "Go to Payments" })).toHaveAttribute(
      "href",
      "/payment",
    );
    await expect(missing.locator("[data-gap=registration_not_submitted]")).toContainText(
      "You have not registered any courses for the first semester of 2024/2025.",
    );
    await expect(missing.getByRole("link", { name: "Go to Course Registration" })).toHaveAttribute(
      "href",
      "/course-reg",
    );
    await expect(page.getByRole("button", { name: "Print exam card" })).toHaveCount(0);
  });

  await test.step("fee paid, registration submitted: the adviser's approval alone is missing", async () => {
    await registerFirstSemester(page, ["BIO 111", "CHM 111"]);
    await payFullFee(page);
    await openExamCard(page);
    const missing = page.getByTestId("exam-card-missing");
    await expect(missing.getByRole("listitem")).toHaveCount(1);
    await expect(missing.locator("[data-gap=registration_pending]")).toContainText(
      "waiting for your course adviser's approval",
    );
    await missing.getByRole("link", { name: "Go to Course Registration" }).click();
    await expect(page).toHaveURL("/course-reg");
  });

  await test.step("the course adviser approves the first semester", async () => {
    const staffContext = await browser.newContext({ javaScriptEnabled: false });
    const adviser = await staffContext.newPage();
    await adviser.goto("/staff/login");
    await adviser.getByLabel("E-mail address").fill(ADVISER.email);
    await adviser.getByLabel("Password").fill(ADVISER.password);
    await adviser.getByRole("button", { name: "Sign in" }).click();
    await expect(adviser.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
    await adviser.goto("/staff/registrations");
    await adviser.getByLabel("Status").selectOption({ label: "Pending" });
    await adviser.getByRole("button", { name: "Filter" }).click();
    await adviser.getByRole("link", { name: student.name }).click();
    await adviser.getByRole("button", { name: "Approve First Semester…", exact: true }).click();
    await adviser.getByRole("button", { name: "Yes, approve First Semester" }).click();
    await expect(adviser.getByRole("status")).toHaveText(
      `First Semester registration for 2024/2025 approved: ${student.name} can no longer change it.`,
    );
    await staffContext.close();
  });

  let verifyUrl = "";
  await test.step("the card: photo, student, courses and a QR link; it prints on one A4 page", async () => {
    await openExamCard(page);
    const card = page.getByRole("article", {
      name: "Examination Card — First Semester, 2024/2025",
    });
    await expect(card).toBeVisible();
    await expect(card.getByRole("img", { name: /^Passport photo of Fresh/ })).toBeVisible();
    const holder = card.getByRole("table", { name: "Student" });
    await expect(holder.getByRole("row", { name: /Matric Number/ })).toContainText(
      student.matricNo,
    );
    await expect(holder.getByRole("row", { name: /Programme/ })).toContainText(
      "NCE Biology/Chemistry",
    );
    await expect(holder.getByRole("row", { name: /Level/ })).toContainText("100");
    const courses = card.getByRole("table", { name: "Registered courses" });
    await expect(courses.getByRole("row")).toHaveCount(4);
    await expect(courses).toContainText("BIO 111");
    await expect(courses).toContainText("CHM 111");
    await expect(page.getByRole("button", { name: "Print exam card" })).toBeVisible();

    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("complementary", { name: "Main menu" })).toBeHidden();
    await expect(page.getByRole("button", { name: "Print exam card" })).toBeHidden();
    // Back to no emulation: page.pdf() prints with print media unless screen was asked for.
    await page.emulateMedia({ media: null });
    const pages = pdfPageTexts(await page.pdf({ preferCSSPageSize: true }));
    expect(pages).toHaveLength(1);
    for (const text of ["Examination Card", student.matricNo, "BIO 111", "CHM 111", "Total Units"])
      expect(pages[0]).toContain(text);
    expect(pages[0]).not.toContain("Logout");

    verifyUrl = (await card.locator("[data-verify-link]").getAttribute("href"))!;
    expect(verifyUrl).toMatch(
      new RegExp(`^${PORTAL_ORIGIN}/verify/exam-card/[\\w-]+\\.[\\w-]{22}$`),
    );
  });

  await test.step("a signed-out visitor opens the QR link: genuine, with the same details", async () => {
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    const answer = await visitor.goto(verifyUrl);
    expect(answer?.status()).toBe(200);
    await expect(visitor.getByText("Genuine exam card.")).toBeVisible();
    await expect(visitor.getByText(student.matricNo, { exact: true })).toBeVisible();
    await expect(visitor.getByRole("list").filter({ hasText: "BIO 111" })).toContainText("CHM 111");
    const altered = verifyUrl.replace(/.$/, (last) => (last === "A" ? "B" : "A"));
    expect((await visitor.goto(altered))?.status()).toBe(404);
    await expect(visitor.getByText("Not genuine.")).toBeVisible();
    await visitorContext.close();
  });
});
