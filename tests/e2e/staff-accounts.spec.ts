import { expect, test, type Page } from "@playwright/test";
import { DEMO, PORTAL_ORIGIN, signIn } from "./support.ts";
import { codeFor, rememberAdministratorKey, staffSignIn } from "./staff-sign-in.ts";

/** The newest staff password link mailed to `email`, from the development outbox. */
async function mailedStaffLink(page: Page, email: string) {
  let link = "";
  await expect
    .poll(async () => {
      await page.goto("/api/dev/outbox");
      const mail = page
        .locator("article")
        .filter({ hasText: `to ${email}` })
        .first();
      if ((await mail.count()) === 0) return "";
      link =
        (await mail
          .getByRole("link")
          .filter({ hasText: "/staff/password/" })
          .first()
          .getAttribute("href")) ?? "";
      return link;
    })
    .toMatch(new RegExp(`^${PORTAL_ORIGIN}/staff/password/[A-Za-z0-9_-]{43}$`));
  return link;
}

test("the administrator sets up an authenticator, invites a course adviser, and the adviser sets a password and signs in", async ({
  page,
  browser,
}) => {
  // Five people's steps and six password checks (the enrolment's included): more than a minute on a busy machine.
  test.slow();
  await staffSignIn(page, "admin@college.example");
  // Admin accounts must set up an authenticator before anything else opens.
  await expect(page).toHaveURL(/\/staff\/totp/);
  await page.goto("/staff/accounts");
  await expect(page).toHaveURL(/\/staff\/totp/);
  await page.getByRole("button", { name: "Start set-up" }).click();
  const key = (await page.locator(".totp-key").textContent())!;
  await page.getByLabel("Code from the app").fill("000000");
  await page.getByLabel("Your password").fill("demo1234");
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByRole("alert")).toContainText("That code is not right");
  // Binding the phone takes the password again: an open session alone is not enough (decision 163).
  await page.getByLabel("Code from the app").fill(codeFor(key));
  await page.getByLabel("Your password").fill("not-my-password");
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByRole("alert")).toContainText("That password is not right.");
  await expect(page.getByLabel("Your password")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Code from the app").fill(codeFor(key));
  await page.getByLabel("Your password").fill("demo1234");
  await page.getByRole("button", { name: "Confirm" }).click();
  rememberAdministratorKey(key);
  await expect(
    page.getByRole("heading", { name: "Your authenticator app is set up" }),
  ).toBeVisible();
  await expect(page.locator(".recovery-codes li")).toHaveCount(10);
  await page.getByRole("link", { name: "Continue" }).click();

  await page.goto("/staff/accounts");
  const form = page.locator("section", {
    has: page.getByRole("heading", { name: "New staff account" }),
  });
  await form.getByLabel("Name", { exact: true }).fill("Dr. Halima Sule");
  await form.getByLabel("E-mail address (the sign-in name)").fill("halima.sule@college.example");
  await form.getByLabel("Course adviser", { exact: true }).check();
  await form.getByText("Course adviser: departments and levels advised").click();
  await form.getByLabel("Chemistry").check();
  await form.getByLabel("300").check();
  await form.getByRole("button", { name: "Create and send invitation" }).click();
  await expect(page.getByRole("status")).toContainText(
    "An invitation is on its way to halima.sule@college.example",
  );
  await expect(page.getByRole("row", { name: /Dr. Halima Sule/ })).toContainText("Chemistry 300");

  await page.goto("/staff/audit");
  await expect(page.getByRole("row", { name: /Staff account created/ }).first()).toContainText(
    "Staff account Dr. Halima Sule (halima.sule@college.example)",
  );

  const adviser = await browser.newPage();
  await adviser.goto(await mailedStaffLink(adviser, "halima.sule@college.example"));
  await adviser.getByLabel("New password", { exact: true }).fill("Chemistry-Lab-2025");
  await adviser.getByLabel("Confirm new password").fill("Chemistry-Lab-2025");
  await adviser.getByRole("button", { name: "Set password" }).click();
  await expect(adviser.getByRole("status")).toContainText("Your password is set");
  await staffSignIn(adviser, "halima.sule@college.example", "Chemistry-Lab-2025");
  await expect(adviser.getByRole("heading", { name: "Welcome, Dr. Halima Sule" })).toBeVisible();
  await expect(adviser.getByText("You advise: Chemistry 300 level.")).toBeVisible();

  // She advises Chemistry 300 only: a Biology student's registration is refused, even by its address.
  const student = await browser.newPage();
  await signIn(student, DEMO.returning);
  const studentId = await student.evaluate(
    () => (JSON.parse(sessionStorage.getItem("user-info") ?? "{}") as { id: number }).id,
  );
  await student.close();
  await adviser.goto("/staff/registrations");
  // The list opens on what waits for her (decision 159): nothing, in any session.
  await expect(
    adviser.getByRole("heading", { name: /^0 registrations waiting for review in every session/ }),
  ).toBeVisible();
  const refused = await adviser.goto(`/staff/registrations/${studentId}?session=2024%2F2025`);
  expect(refused?.status()).toBe(403);
  await expect(adviser.getByRole("alert")).toContainText(
    "You do not advise this student's department and level.",
  );
  const approve = await adviser.request.post(
    `/staff/registrations/${studentId}?session=2024%2F2025`,
    {
      form: { action: "approve", session: "2024/2025", semester: "1" },
      headers: { origin: PORTAL_ORIGIN },
    },
  );
  expect(approve.status()).toBe(403);
  await adviser.close();
});

test("a registry officer sees only the registry's menu and is refused the accounts page", async ({
  page,
}) => {
  await staffSignIn(page, "registry@college.example");
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
  const menu = page.getByRole("navigation", { name: "Staff menu" });
  await expect(menu.getByRole("link", { name: "Audit log" })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Staff accounts" })).toHaveCount(0);
  const refused = await page.goto("/staff/accounts");
  expect(refused?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Not part of your role" })).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("status")).toContainText("You have signed out.");
  await page.goto("/staff");
  await expect(page).toHaveURL(/\/staff\/login\?next=%2Fstaff/);
});

test("a student's session does not open staff pages, and a wrong staff password is refused", async ({
  page,
}) => {
  await signIn(page, DEMO.fresher);
  await page.goto("/staff");
  await expect(page).toHaveURL(/\/staff\/login\?next=%2Fstaff&student=1$/);
  await expect(
    page.getByText("That page is for college staff: your student account cannot open it."),
  ).toBeVisible();
  await staffSignIn(page, "support@college.example", "not-the-password");
  await expect(page.getByRole("alert")).toContainText("That e-mail address or password is wrong.");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a help desk officer signs in and out on plain forms", async ({ page }) => {
    await staffSignIn(page, "support@college.example");
    await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("status")).toContainText("You have signed out.");
  });
});
