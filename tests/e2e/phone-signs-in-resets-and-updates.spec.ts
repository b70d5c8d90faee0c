import { expect, test, type Page } from "@playwright/test";
import { freshStudent } from "./fresh-student.ts";
import { expectInViewport, expectTapTargets } from "./phone/checks.ts";
import { PHONE_360 } from "./phone/phones.ts";
import { mailInOutbox, waitForIslands } from "./support.ts";

// Issue 29 on a cheap Android phone: every outcome of sign-in, password reset, biodata and
// complaints is on screen when the page arrives, every control takes a thumb, and nothing the
// student typed or needs to know is lost, with JavaScript and without.
test.use(PHONE_360);

const WRONG = "That phone number or password is wrong. Check both and try again.";
const LINK_NOT_VALID = "This password reset link is not valid";

async function signInAs(page: Page, who: { phone: string; password: string }, next: string) {
  await page.goto(`/login?${new URLSearchParams({ next })}`);
  await page.getByLabel("Phone number").fill(who.phone);
  await page.getByLabel("Password", { exact: true }).fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(next);
}

/** The reset link in the newest reset mail to `email`, once it arrives. */
async function resetLink(page: Page, email: string) {
  const mail = await mailInOutbox(page, "Reset your student portal password", `to ${email}`);
  return (await mail
    .getByRole("link")
    .filter({ hasText: "/password/reset/" })
    .first()
    .getAttribute("href"))!;
}

async function askForResetLink(page: Page, email: string) {
  await page.goto("/reset-password");
  await expectTapTargets(page);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Reset" }).click();
  await expectInViewport(page.getByRole("status").filter({ hasText: "Check your email" }));
}

test.describe("with JavaScript", () => {
  test("a refused sign-in keeps the phone number, says why on screen, and Remember me takes a thumb", async ({
    page,
    browser,
  }) => {
    const student = await freshStudent(browser, 71);
    await page.goto("/login");
    await expect(page.locator("form[data-enhanced]")).toHaveCount(1);
    const phone = page.getByLabel("Phone number");
    await expect(phone).toHaveAttribute("type", "tel");
    await expect(phone).toHaveAttribute("autocomplete", "username");
    await expectTapTargets(page);

    const remember = page.getByRole("switch", { name: "Remember me" });
    await page.getByText("Remember me").tap();
    await expect(remember).toBeChecked();

    await phone.fill(student.phone);
    await page.getByLabel("Password", { exact: true }).fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).tap();
    await expectInViewport(page.locator(".toast-error"));
    await expect(phone).toHaveValue(student.phone);

    await page.getByLabel("Password", { exact: true }).fill(student.password);
    await page.getByRole("button", { name: "Failed, try again" }).tap();
    await expect(page).toHaveURL("/");
  });

  test("a used reset link says so before the form, and each step's outcome is on screen", async ({
    page,
    browser,
  }) => {
    const { email } = await freshStudent(browser, 72);
    await askForResetLink(page, email);
    const link = await resetLink(page, email);

    await page.goto(link);
    await expect(page.locator("form[data-enhanced]")).toHaveCount(1);
    await expectTapTargets(page);
    await page.getByLabel("Password", { exact: true }).fill("Jos-Plateau-Cold-1");
    await page.getByLabel("Confirm Password").fill("Jos-Plateau-Cold-1");
    await page.getByRole("button", { name: "Submit" }).tap();
    await expect(page).toHaveURL("/login?password_changed=1");
    await expectInViewport(
      page.getByRole("status").filter({ hasText: "Your password has been changed" }),
    );

    await page.goto(link);
    await expectInViewport(page.getByRole("alert").filter({ hasText: LINK_NOT_VALID }));
    await expect(page.getByLabel("Confirm Password")).toHaveCount(0);
    await expectTapTargets(page);
    await page.getByRole("link", { name: "Ask for a new link" }).tap();
    await expect(page).toHaveURL("/reset-password");
  });

  test("a complaint sent is listed under My complaints at once, and its confirmation is on screen", async ({
    page,
    browser,
  }) => {
    await signInAs(page, await freshStudent(browser, 73), "/complaint");
    await expect(page.locator("form[data-enhanced]")).toHaveCount(1);
    await expect(page.getByText("You have not sent a complaint yet.")).toBeVisible();
    await expectTapTargets(page);

    await page.getByLabel("Subject").fill("Lecture hall fan");
    await page
      .getByLabel("Message")
      .fill("The ceiling fan in LT2 has not worked since Monday.\n".repeat(8));
    await page.getByRole("button", { name: "Send Complaint" }).tap();

    const sent = page
      .getByRole("status")
      .filter({ hasText: "Successful! Complaint has been sent" });
    await expectInViewport(sent);
    const ticket = /CMP-[2-9A-HJKMNP-TV-Z]{6}/.exec((await sent.textContent()) ?? "")![0];
    const mine = page.getByRole("region", { name: "My complaints" });
    await expect(mine.getByText("You have not sent a complaint yet.")).toHaveCount(0);
    const listed = mine.getByRole("listitem").filter({ hasText: "Lecture hall fan" });
    await expect(listed).toContainText(`${ticket} · Open · sent `);
    await expect(listed).toContainText("No reply yet.");
    await listed.getByText("Lecture hall fan").tap();
    await expect(listed).toContainText("The ceiling fan in LT2 has not worked since Monday.");

    // What the script listed is what the server lists.
    await page.reload();
    await expect(mine.getByRole("listitem").filter({ hasText: "Lecture hall fan" })).toContainText(
      `${ticket} · Open`,
    );
  });

  test("biodata: refusals go once a save succeeds, a huge photo is refused before sending, the confirm page names the address", async ({
    page,
    browser,
  }) => {
    const student = await freshStudent(browser, 74);
    await signInAs(page, student, "/biodata");
    await waitForIslands(page);
    await expectTapTargets(page);
    await expect(page.locator("#photo-hint")).toHaveText(/It is made smaller before it is sent\./);

    let uploads = 0;
    page.on(
      "request",
      (request) => void (request.url().includes("/api/student/biodata-update/") && uploads++),
    );
    await page.getByLabel("Passport photo").setInputFiles({
      name: "IMG_9000.jpg",
      mimeType: "image/jpeg",
      buffer: Buffer.alloc(21 * 1024 * 1024, 0xff),
    });
    await expect(page.locator("#photo-error")).toHaveText(
      /That photo is 21 MB, too large to prepare on this device\./,
    );

    const newEmail = "fresh.974.new@students.example";
    await page.getByLabel("Email").fill(newEmail);
    const refusals = page.locator("[data-sonner-toast][data-type=error]");
    for (const wrong of ["not-my-password", "still-not-it"]) {
      await page.getByLabel("Current password").fill(wrong);
      await page.getByRole("button", { name: "Update Profile" }).tap();
      await expect(
        refusals.filter({ hasText: "That is not your current password" }).last(),
      ).toBeVisible();
    }
    await expect(refusals).toHaveCount(2);
    await page.getByLabel("Current password").fill(student.password);
    await page.getByRole("button", { name: "Update Profile" }).tap();
    await expectInViewport(
      page.getByRole("status").filter({ hasText: `open the link we sent to ${newEmail}` }),
    );
    await expect(refusals).toHaveCount(0);
    // The 21 MB file never left the phone: three saves, no photo in any of them.
    expect(uploads).toBe(3);

    const mail = await mailInOutbox(
      page,
      "Confirm the change to your student portal account",
      `to ${newEmail}`,
    );
    const link = (await mail
      .getByRole("link")
      .filter({ hasText: "/biodata/confirm/" })
      .first()
      .getAttribute("href"))!;
    await page.goto(link);
    await expect(page.getByRole("term")).toHaveText(["New e-mail address"]);
    await expect(page.getByRole("definition")).toHaveText([newEmail]);
    await expectTapTargets(page);
    await page.getByRole("button", { name: "Confirm the change" }).tap();
    await expect(page).toHaveURL("/biodata?contact_changed=1");

    // A used link is refused as the page opens, not after pressing the button.
    await page.goto(link);
    await expectInViewport(
      page.getByRole("alert").filter({ hasText: "This confirmation link is not valid" }),
    );
    await expect(page.getByRole("button", { name: "Confirm the change" })).toHaveCount(0);

    await page.goto("/biodata");
    await waitForIslands(page);
    await page.getByLabel("Religion").selectOption("Islam");
    await page.getByRole("button", { name: "Update Profile" }).tap();
    await expect(page).toHaveURL("/biodata?updated=1");
    await expectInViewport(
      page.getByRole("status").filter({ hasText: "Update successful" }).first(),
    );
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a refused sign-in keeps the phone number, never the password, and says why on screen", async ({
    page,
    browser,
  }) => {
    const student = await freshStudent(browser, 75);
    await page.goto("/login?next=%2Fcomplaint");
    await expectTapTargets(page);
    await page.getByText("Remember me").tap();
    await expect(page.getByRole("switch", { name: "Remember me" })).toBeChecked();

    await page.getByLabel("Phone number").fill(student.phone);
    await page.getByLabel("Password", { exact: true }).fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).tap();
    await expect(page).toHaveURL("/login?error=wrong&next=%2Fcomplaint");
    await expectInViewport(page.getByRole("alert").filter({ hasText: WRONG }));
    await expect(page.getByLabel("Phone number")).toHaveValue(student.phone);
    await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");

    // Shown once: a reload, or the next visitor, finds the field empty.
    await page.reload();
    await expect(page.getByLabel("Phone number")).toHaveValue("");

    await page.getByLabel("Phone number").fill(student.phone);
    await page.getByLabel("Password", { exact: true }).fill(student.password);
    await page.getByRole("button", { name: "Sign in" }).tap();
    await expect(page).toHaveURL("/complaint");
  });

  test("a reset link: each outcome on screen, and once used it is refused before the form", async ({
    page,
    browser,
  }) => {
    const { email } = await freshStudent(browser, 76);
    await askForResetLink(page, email);
    const link = await resetLink(page, email);

    await page.goto(link);
    await expectTapTargets(page);
    await page.getByLabel("Password", { exact: true }).fill("Enugu-Coal-City-1");
    await page.getByLabel("Confirm Password").fill("Enugu-Coal-City-2");
    await page.getByRole("button", { name: "Submit" }).tap();
    await expectInViewport(page.getByRole("alert").filter({ hasText: "Password do not match" }));

    await page.getByLabel("Password", { exact: true }).fill("Enugu-Coal-City-1");
    await page.getByLabel("Confirm Password").fill("Enugu-Coal-City-1");
    await page.getByRole("button", { name: "Submit" }).tap();
    await expect(page).toHaveURL("/login?password_changed=1");
    await expectInViewport(
      page.getByRole("status").filter({ hasText: "Your password has been changed" }),
    );

    await page.goto(link);
    await expectInViewport(page.getByRole("alert").filter({ hasText: LINK_NOT_VALID }));
    await expect(page.getByLabel("Confirm Password")).toHaveCount(0);
  });

  test("a complaint and a biodata save: the outcome is at the top of the page they land on", async ({
    page,
    browser,
  }) => {
    await signInAs(page, await freshStudent(browser, 77), "/complaint");
    await page.getByLabel("Subject").fill("Library opening hours");
    await page
      .getByLabel("Message")
      .fill("Please open the library on Saturdays during exams.\n".repeat(8));
    await page.getByRole("button", { name: "Send Complaint" }).tap();
    await expect(page).toHaveURL(/\/complaint\?sent=1&ticket=CMP-/);
    await expectInViewport(
      page.getByRole("status").filter({ hasText: "Successful! Complaint has been sent" }),
    );
    await expect(
      page.getByRole("region", { name: "My complaints" }).getByRole("listitem"),
    ).toContainText("Library opening hours");

    await page.goto("/biodata");
    await expectTapTargets(page);
    // Without scripts the photo is not shrunk: the page says so, and names the limit.
    await expect(page.locator("#photo-hint")).toHaveText(/at most 5 MB\. It is sent as it is/);
    await expect(page.locator("#photo-hint")).not.toContainText("made smaller");
    await page.getByLabel("Religion").selectOption("Christianity");
    await page.getByRole("button", { name: "Update Profile" }).tap();
    await expect(page).toHaveURL("/biodata?updated=1");
    await expectInViewport(page.getByRole("status").filter({ hasText: "Update successful" }));
  });
});
