import { expect, test, type Page } from "@playwright/test";
import { DEMO, signIn, signInWithoutJavaScript } from "./support.ts";
import { freshStudent } from "./fresh-student.ts";
import { signInAsAdministrator, staffSignIn } from "./staff-sign-in.ts";

// Issue 30, items 7, 16, 18 and 21. Every account, announcement and complaint here is made by
// this file, so no other journey's demo accounts are slowed or switched off.
const OFFICER = { name: "Tolu Bakare", email: "tolu.bakare@college.example" };

const accountRow = (page: Page, name: string) => page.getByRole("row").filter({ hasText: name });
// Each wrong password costs a full password check, as a right one does: allow for a busy machine.
const CHECKED = { timeout: 30_000 };

// Several people's work in one journey, with a fresh student made first.
test.setTimeout(240_000);

test.describe("the administrator, without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("clears a staff member's sign-in wait and deactivates the account, each after a confirmation that says what will happen", async ({
    page,
    browser,
  }) => {
    await signInAsAdministrator(page);
    await page.goto("/staff/accounts");
    const form = page.locator("section", {
      has: page.getByRole("heading", { name: "New staff account" }),
    });
    await form.getByLabel("Name", { exact: true }).fill(OFFICER.name);
    await form.getByLabel("E-mail address (the sign-in name)").fill(OFFICER.email);
    await form.getByLabel("Help desk", { exact: true }).check();
    await form.getByRole("button", { name: "Create and send invitation" }).click();
    await expect(page.getByRole("status")).toContainText(
      `An invitation is on its way to ${OFFICER.email}`,
    );

    // Five wrong passwords from this machine: the sixth try waits, and the page says how long.
    const desk = await browser.newPage({ javaScriptEnabled: false });
    for (let attempt = 0; attempt < 5; attempt++) {
      await staffSignIn(desk, OFFICER.email, `wrong-${attempt}`);
      await expect(desk.getByRole("alert")).toContainText(
        "That e-mail address or password is wrong.",
        CHECKED,
      );
    }
    await staffSignIn(desk, OFFICER.email, "wrong-again");
    await expect(desk.getByRole("alert")).toHaveText(
      /^Too many failed sign-in attempts for this e-mail address from your network\. Wait 1 minute and try again/,
      CHECKED,
    );
    // Another staff e-mail from the same machine is not slowed.
    await staffSignIn(desk, "support@college.example");
    await expect(desk.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
    await desk.close();

    await page.goto("/staff/accounts");
    await expect(accountRow(page, OFFICER.name)).toContainText(
      "Sign-in slowed after 5 wrong passwords",
    );
    await accountRow(page, OFFICER.name)
      .getByRole("button", { name: "Clear sign-in wait" })
      .click();
    const clearing = page.getByRole("region", { name: `Clear ${OFFICER.name}'s sign-in wait?` });
    await expect(clearing).toContainText(
      "The wrong passwords counted on tolu.bakare@college.example are forgotten",
    );
    await clearing.getByRole("button", { name: "Yes, clear the wait" }).click();
    await expect(page.getByRole("status")).toHaveText(
      `Sign-in wait cleared: ${OFFICER.name} can sign in again now.`,
    );
    await expect(accountRow(page, OFFICER.name)).not.toContainText("Sign-in slowed");

    // Deactivate: the first click only asks; "No, keep it" changes nothing.
    await accountRow(page, OFFICER.name).getByRole("button", { name: "Deactivate" }).click();
    const asking = page.getByRole("region", { name: `Deactivate ${OFFICER.name}?` });
    await expect(asking).toContainText("can no longer sign in");
    await asking.getByRole("link", { name: "No, keep it" }).click();
    await expect(accountRow(page, OFFICER.name)).toContainText("Active");
    await accountRow(page, OFFICER.name).getByRole("button", { name: "Deactivate" }).click();
    await page.getByRole("button", { name: `Yes, deactivate ${OFFICER.name}` }).click();
    await expect(page.getByRole("status")).toHaveText(
      `Account deactivated: ${OFFICER.name} can no longer sign in.`,
    );
    await expect(accountRow(page, OFFICER.name)).toContainText("Deactivated");
  });

  test("resetting an authenticator asks first and says what it will undo; keeping it changes nothing", async ({
    page,
  }) => {
    await signInAsAdministrator(page);
    await page.goto("/staff/accounts");
    // The administrator's own row: it surely has an authenticator, and nothing is reset here.
    const own = accountRow(page, "admin@college.example");
    await expect(own).toContainText("Authenticator set up");
    await own.getByRole("button", { name: "Reset authenticator" }).click();
    const asking = page.getByRole("region", { name: /^Reset .+'s authenticator\?$/ });
    await expect(asking).toContainText("recovery codes stop working at once");
    await expect(asking).toContainText("signed out everywhere");
    await expect(
      asking.getByRole("button", { name: /^Yes, reset .+'s authenticator$/ }),
    ).toBeVisible();
    await asking.getByRole("link", { name: "No, keep it" }).click();
    await expect(page.getByRole("region", { name: /authenticator\?$/ })).toHaveCount(0);
    await expect(accountRow(page, "admin@college.example")).toContainText("Authenticator set up");
  });

  test("deletes an announcement only after confirming, and says which one went", async ({
    page,
  }) => {
    await signInAsAdministrator(page);
    await page.goto("/staff/announcements");
    await page.getByLabel("Text").fill("Matriculation ceremony moved to the main hall.");
    await page.getByRole("button", { name: "Publish announcement" }).click();
    const row = page.getByRole("row").filter({ hasText: "Matriculation ceremony moved" });
    await row.getByRole("button", { name: "Delete" }).click();
    const asking = page.getByRole("region", { name: "Delete this announcement?" });
    await expect(asking).toContainText("Matriculation ceremony moved to the main hall.");
    await expect(row).toHaveCount(1);
    await asking.getByRole("button", { name: "Yes, delete it" }).click();
    await expect(page.getByRole("status")).toHaveText(
      "Announcement deleted: students no longer see “Matriculation ceremony moved to the main hall.”. The audit log keeps its text.",
    );
    await expect(row).toHaveCount(0);
  });
});

test("a student's reply under a closed complaint opens it again, and the help desk reads the thread", async ({
  page,
  browser,
}) => {
  const student = await freshStudent(browser, 141);
  await signIn(page, student, "/complaint");
  await page.getByLabel("Subject").fill("Transcript request");
  await page.getByLabel("Message").fill("How do I get my 100 level transcript?");
  await page.getByRole("button", { name: "Send Complaint" }).click();
  const sent = page.getByRole("status").filter({ hasText: "Successful! Complaint has been sent" });
  const ticket = /CMP-[A-Z2-9]{6}/.exec((await sent.textContent())!)![0];

  const desk = await browser.newPage();
  await staffSignIn(desk, "support@college.example");
  await desk.goto(`/staff/complaints/${ticket}`);
  await desk.getByLabel("Reply", { exact: true }).fill("Bring your receipt to the registry.");
  await desk.getByRole("button", { name: "Send reply" }).click();
  await desk.getByRole("button", { name: "Close complaint" }).click();
  await expect(desk.getByRole("status")).toContainText(`${ticket} is closed.`);

  // The student answers on a plain form: no script needed.
  const noScript = await browser.newPage({ javaScriptEnabled: false });
  await signInWithoutJavaScript(noScript, student, "/complaint");
  const item = noScript.locator(`[data-complaint="${ticket}"]`);
  await expect(item).toContainText(`${ticket} · Closed`);
  await item.locator("summary").click();
  await item.getByLabel(`Your reply to ${ticket}`).fill("Which receipt: the school fees one?");
  await item.getByRole("button", { name: "Send reply" }).click();
  await expect(noScript.getByRole("status").filter({ hasText: "Reply sent." })).toHaveText(
    `Reply sent. ${ticket} was closed and is open again: the help desk will read your reply.`,
  );
  await expect(noScript.locator(`[data-complaint="${ticket}"]`)).toContainText(`${ticket} · Open`);
  await expect(noScript.getByRole("list", { name: `Replies to ${ticket}` })).toContainText(
    "You replied",
  );
  await noScript.close();

  await desk.goto(`/staff/complaints/${ticket}`);
  await expect(desk.getByText("Open", { exact: true })).toBeVisible();
  const thread = desk.getByRole("region", { name: "Thread" });
  await expect(thread.getByRole("listitem")).toHaveCount(2);
  await expect(thread.getByRole("listitem").nth(0)).toContainText(
    "Bring your receipt to the registry.",
  );
  await expect(thread.getByRole("listitem").nth(1)).toContainText("(the student)");
  await expect(thread.getByRole("listitem").nth(1)).toContainText(
    "Which receipt: the school fees one?",
  );
  await desk.close();
});

test("a student, or anyone without a staff session, who opens a staff page gets the staff sign-in with a line saying so", async ({
  page,
  browser,
}) => {
  await signIn(page, DEMO.fresher);
  const answer = await page.goto("/staff/accounts");
  expect(answer?.status()).toBe(200);
  await expect(page).toHaveURL(/\/staff\/login\?next=%2Fstaff%2Faccounts&student=1$/);
  await expect(page.getByRole("heading", { name: "Staff sign in" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText(
    "your student account cannot open it. Staff sign in here",
  );
  await expect(page.getByText("Unexpected Application Error!")).toHaveCount(0);

  const stranger = await browser.newPage();
  await stranger.goto("/staff/students/1");
  await expect(stranger.getByRole("status")).toHaveText(
    "That page is for college staff. Staff sign in here.",
  );
  // Signing in there continues to the page first asked for.
  await stranger.getByLabel("E-mail address").fill("registry@college.example");
  await stranger.getByLabel("Password").fill("demo1234");
  await stranger.getByRole("button", { name: "Sign in" }).click();
  await expect(stranger).toHaveURL(/\/staff\/students\/1$/);
  await stranger.close();
});

test("a staff page's header names the member and the role once", async ({ page }) => {
  await staffSignIn(page, "registry@college.example");
  await expect(page.locator(".staff-bar-who")).toHaveText("Ngozi Eze (Registry)");
});
