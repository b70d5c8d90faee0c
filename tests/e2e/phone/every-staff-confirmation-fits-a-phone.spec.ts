import { expect, test, type Locator, type Page } from "@playwright/test";
import { signInWithAuthenticator, staffSignIn } from "../staff-sign-in.ts";
import { expectPageFitsPhone } from "./checks.ts";

// Every staff action that asks before it acts (a ConfirmBeforeActing or ConfirmCard step, and the
// refund's confirmation), on the phone the project emulates (issue 30), with the sweep's checks
// (every-staff-page-fits-a-phone.spec.ts). Each step is reached as staff reach it, by the
// action's first post: its own button where the page offers it in this run. Where the record is
// in another state than the action needs (a result another journey has already submitted, a
// promotion the seed already made), the page is sent the same fields its form posts, which it
// answers with the same step. Nothing is confirmed: each step is left by its Cancel link, so
// nothing changes and no other journey notices.

const SEEDED_FEE = "CCE-20231009-4D7KQ2M9XW3P";
const RETURNING_MATRIC = "CCE/2023/BIO/0042";
/** Any account but the administrator's own, who cannot deactivate themselves. */
const OTHER_ACCOUNT = "support@college.example";

/**
 * Posts `fields` to the page's own address, as the action's form does: for a step whose button
 * the page does not show in this run's state.
 */
async function postFirstStep(page: Page, fields: Record<string, string>) {
  await page.evaluate((fields) => {
    const form = document.createElement("form");
    form.method = "post";
    for (const [name, value] of Object.entries(fields)) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
  }, fields);
}

/** The action's own button when the page shows it; otherwise the fields its form would post. */
async function askFirst(page: Page, button: Locator, fields: Record<string, string>) {
  if (await button.count()) await button.click();
  else await postFirstStep(page, fields);
}

/**
 * The confirmation step, named by its heading, is shown, fits the phone, and is left by its
 * Cancel link: nothing done.
 */
async function checkConfirmation(page: Page, what: string, heading: string | RegExp) {
  const step = page.getByRole("region", { name: heading });
  await test.step(`${new URL(page.url()).pathname}: ${what}`, async () => {
    await expect(step).toBeVisible();
    await page.waitForLoadState();
    await expectPageFitsPhone(page, { soft: true });
    await step.getByRole("link", { name: /^(Cancel|No, keep it)$/ }).click();
    await expect(step).toHaveCount(0);
  });
}

test("the administrator's confirmations fit the phone", async ({ page }) => {
  await signInWithAuthenticator(page, "admin@college.example");
  await page.goto("/staff/accounts");
  const row = page.getByRole("row").filter({ hasText: OTHER_ACCOUNT });
  await row.getByRole("button", { name: "Deactivate" }).click();
  await checkConfirmation(page, "deactivating an account", /^Deactivate .+\?$/);

  // "Clear sign-in wait" shows only beside an account with wrong passwords counted.
  const id = (await row.locator('input[name="id"]').first().inputValue())!;
  await askFirst(page, row.getByRole("button", { name: "Clear sign-in wait" }), {
    id,
    action: "clear-wait",
  });
  await checkConfirmation(page, "clearing a sign-in wait", /^Clear .+'s sign-in wait\?$/);

  // The administrator's own authenticator: set up by this sign-in, and left as it is.
  await page
    .getByRole("row")
    .filter({ hasText: "admin@college.example" })
    .getByRole("button", { name: "Reset authenticator" })
    .click();
  await checkConfirmation(page, "resetting an authenticator", /^Reset .+'s authenticator\?$/);

  await page.goto("/staff/announcements");
  await page.getByRole("button", { name: "Delete" }).first().click();
  await checkConfirmation(page, "deleting an announcement", "Delete this announcement?");
});

test("the registry's confirmations fit the phone", async ({ page }) => {
  await staffSignIn(page, "registry@college.example");
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();

  // Only a session newer than the current one can be made current: the bursar's journey creates
  // the next one earlier in the lane. This file creates none (the last journey moves to it).
  await page.goto("/staff/sessions");
  const makeCurrent = page.getByRole("button", { name: /^Make .+ current…$/ }).first();
  if (await makeCurrent.count()) {
    await makeCurrent.click();
    await checkConfirmation(
      page,
      "making a session current",
      /^Make .+ the current session in place of .+\?$/,
    );
  } else {
    test.info().annotations.push({
      type: "not checked",
      description: "making a session current: no session newer than the current one",
    });
  }

  // The current session's promotion, holding the demo's returning student back so the step lists
  // who stays. The seed has set the current session's levels, so the page offers the check only
  // once the last journey has moved the college on. Undoing a promotion asks too, but there is
  // none to undo before then: that step is checked at this width in the last journey.
  await page.goto("/staff/sessions");
  await page.getByRole("link", { name: "Promotion" }).first().click();
  const check = page.getByRole("button", { name: "Check and promote…" });
  if (await check.count()) {
    await page.getByLabel(/Matriculation numbers of students who stay/).fill(RETURNING_MATRIC);
  }
  await askFirst(page, check, { action: "check", hold_text: RETURNING_MATRIC });
  await checkConfirmation(page, "promoting students", /^Promote students for .+\?$/);

  // The registry may reopen an approved registration at any time: the demo's returning student's
  // 2023/2024, approved in the seed.
  await page.goto("/staff/registrations?status=approved&session=2023%2F2024");
  await page
    .getByRole("row")
    .filter({ hasText: "Okonkwo Chiamaka Grace" })
    .getByRole("link")
    .first()
    .click();
  await page
    .getByLabel("Reason for reopening (the student reads it)")
    .first()
    .fill("The senate approved a change of programme for this student.");
  await page.getByRole("button", { name: "Reopen First Semester…" }).click();
  await checkConfirmation(
    page,
    "reopening an approved registration",
    "Reopen the approved First Semester for 2023/2024?",
  );
});

test("the course adviser's confirmation fits the phone", async ({ page }) => {
  await staffSignIn(page, "adviser@college.example");
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
  // A registration waiting for approval when the run has one, else any of the adviser's students.
  await page.goto("/staff/registrations");
  if ((await page.locator('main a[href^="/staff/registrations/"]').count()) === 0)
    await page.goto("/staff/registrations?status=all");
  await page.locator('main a[href^="/staff/registrations/"]').first().click();
  const session = new URL(page.url()).searchParams.get("session") ?? "";
  await askFirst(page, page.getByRole("button", { name: /^Approve .+ Semester…$/ }).first(), {
    action: "approve",
    session,
    semester: "1",
  });
  await checkConfirmation(page, "approving a registration", /^Approve .+ Semester for .+\?$/);
});

test("the bursary's refund confirmation fits the phone", async ({ page }) => {
  await signInWithAuthenticator(page, "bursar@college.example");
  // The demo's credited part payment, from its own page: nobody refunds it.
  await page.goto(`/staff/payments/${SEEDED_FEE}`);
  const form = page.getByRole("region", { name: "Refund this payment" });
  await form.getByLabel("Reason").fill("Paid twice: the second payment came through the bank.");
  await form.getByRole("button", { name: `Check the refund of ${SEEDED_FEE}` }).click();
  await checkConfirmation(page, "asking for a refund", "Confirm the refund");
});

test("the results confirmations fit the phone", async ({ page }) => {
  test.setTimeout(120_000);
  // The lecturer's open course, or the result the lecturer's journey has submitted already.
  await staffSignIn(page, "lecturer@college.example");
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
  await page.goto("/staff/teaching");
  await page.locator('main tr:has-text("2024/2025") a[href^="/staff/teaching/"]').first().click();
  await askFirst(page, page.getByRole("button", { name: "Submit to the head of department…" }), {
    action: "submit",
  });
  await checkConfirmation(page, "submitting a result", /^Submit .+ to the head of department\?$/);
  await page.getByRole("button", { name: "Sign out" }).click();

  // The head's first result: one waiting for approval when the run has one, else an approved one.
  await staffSignIn(page, "hod@college.example");
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
  await page.goto("/staff/results/review");
  await page.locator('main a[href^="/staff/results/review/"]').first().click();
  await askFirst(page, page.getByRole("button", { name: /^Approve .+…$/ }), { action: "approve" });
  await checkConfirmation(page, "approving a result", /^Approve .+ for .+\?$/);
  await page.getByRole("button", { name: "Sign out" }).click();

  // The exams office publishes a programme's semester on the academic board's approval.
  await signInWithAuthenticator(page, "exams@college.example");
  await page.goto("/staff/results/computed");
  const programme = (await page
    .getByLabel("Programme")
    .locator("option", { hasText: "NCE Biology/Chemistry" })
    .getAttribute("value"))!;
  await page.goto(
    `/staff/results/computed?programme_id=${programme}&session=2024%2F2025&semester=2`,
  );
  const publish = page.getByRole("button", { name: /^Publish .+…$/ });
  if (await publish.count()) {
    await page.getByLabel("Date of the board's meeting").fill("2025-07-14");
    await page.getByLabel("Minute reference").fill("AB/2025/07/14-3");
  }
  await askFirst(page, publish, {
    programme_id: programme,
    session: "2024/2025",
    semester: "2",
    level: "",
    board_meeting_on: "2025-07-14",
    minute_reference: "AB/2025/07/14-3",
  });
  await checkConfirmation(page, "publishing a semester's results", /^Publish .+\?$/);
});
