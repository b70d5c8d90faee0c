import { expect, test, type Page } from "@playwright/test";
import { freshStudent } from "./fresh-student.ts";
import { PORTAL_ORIGIN, signInWithoutJavaScript } from "./support.ts";

// A student chooses a USSD PIN on the biodata page (a plain form) and walks the menu in the
// development simulator, which calls /api/ussd as the network would (decision 202).
test.use({ javaScriptEnabled: false });

/** Sends one reply in the simulator and waits for the screen that answers it. */
async function reply(phone: Page, text: string, answer: string | RegExp) {
  await phone.getByLabel("Reply").fill(text);
  await phone.getByRole("button", { name: "Send" }).click();
  await expect(phone.locator("#ussd-screen")).toHaveText(answer);
}

test("a student sets a USSD PIN, checks their fees, gets how to pay by SMS and changes the language", async ({
  page,
  browser,
}) => {
  const student = await freshStudent(browser, 203);
  await signInWithoutJavaScript(page, student, "/biodata");
  const ussd = page.getByRole("region", { name: "USSD menu" });
  await expect(ussd).toContainText("You have not set a USSD PIN yet.");

  await ussd.getByLabel("USSD PIN", { exact: true }).fill("1234");
  await ussd.getByLabel("USSD PIN again").fill("1234");
  await ussd.getByLabel("Your portal password").fill(student.password);
  await ussd.getByRole("button", { name: "Save USSD PIN" }).click();
  const refused = page.getByRole("region", { name: "USSD menu" });
  await expect(refused.getByRole("alert")).toBeVisible();
  await expect(refused.locator("#ussd-pin-problem")).toHaveText(
    "Choose a PIN that is harder to guess than 1111 or 1234.",
  );
  await expect(refused.getByLabel("USSD PIN", { exact: true })).toHaveAttribute(
    "aria-invalid",
    "true",
  );

  await refused.getByLabel("USSD PIN", { exact: true }).fill("4826");
  await refused.getByLabel("USSD PIN again").fill("4826");
  await refused.getByLabel("Your portal password").fill(student.password);
  await refused.getByRole("button", { name: "Save USSD PIN" }).click();
  await expect(page).toHaveURL("/biodata?ussd_pin=saved#ussd");
  await expect(ussd.getByRole("status")).toHaveText(
    "Your USSD PIN is saved. Use it the next time you dial.",
  );
  await expect(ussd).toContainText("Your PIN was set on");

  // The simulator is a page with a script, as a phone's dialler is no web page at all.
  const context = await browser.newContext({ baseURL: PORTAL_ORIGIN, javaScriptEnabled: true });
  const phone = await context.newPage();
  await phone.goto("/dev/ussd");
  await expect(phone).toHaveURL(/\/api\/dev\/ussd$/);
  await phone.getByLabel("Phone number of this phone").fill(student.phone);
  await phone.getByRole("button", { name: /^Dial / }).click();
  await expect(phone.locator("#ussd-screen")).toHaveText(
    "Student Portal\nEnter your 4-digit USSD PIN:",
  );
  await reply(phone, "4826", /^Student Portal\n1 Fees\n2 Pay fees/);
  await reply(
    phone,
    "1",
    /^Fees 2024\/2025, 100 level\nPaid: NGN 0\nStill to pay: NGN [\d,]+\n0 Back$/,
  );
  await reply(phone, "0", /^Student Portal\n1 Fees/);
  await reply(phone, "2", /^Pay fees 2024\/2025\. Choose:\n1 Full: NGN [\d,]+/);
  await reply(phone, "1", /^We have sent how to pay NGN [\d,]+ to this phone by SMS\. Ref CCE-/);
  await expect(phone.getByLabel("Reply")).toBeHidden();

  // The queue's worker sends it on its next poll: each look loads the outbox afresh.
  await expect
    .poll(async () => {
      await phone.goto("/api/dev/sms-outbox");
      return phone
        .locator(`li[data-sms-to="+234${student.phone.slice(1)}"] .text`)
        .allTextContents();
    })
    .toContainEqual(expect.stringMatching(/^\s*Pay NGN [\d,]+ by transfer to \d{10} /));

  await phone.goto("/api/dev/ussd");
  await phone.getByLabel("Phone number of this phone").fill(student.phone);
  await phone.getByRole("button", { name: /^Dial / }).click();
  await expect(phone.locator("#ussd-screen")).toHaveText(/Enter your 4-digit USSD PIN:$/);
  await reply(phone, "4826", /^Student Portal\n1 Fees/);
  await reply(phone, "5", /^Language\n1 English\n2 Hausa\n3 Yoruba\n4 Igbo\n0 Back$/);
  await reply(phone, "3", /.+/);
  await expect(phone.getByLabel("Reply")).toBeHidden();
  await phone.getByRole("button", { name: /^Dial / }).click();
  await expect(phone.locator("#ussd-screen")).not.toHaveText(
    "Student Portal\nEnter your 4-digit USSD PIN:",
  );
  await context.close();
});
