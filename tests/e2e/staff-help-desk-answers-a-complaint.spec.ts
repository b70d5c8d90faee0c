import { expect, test } from "@playwright/test";
import { DEMO, mailInOutbox, signIn } from "./support.ts";
import { staffSignIn } from "./staff-sign-in.ts";

test("a student sends a complaint, the help desk replies, and the student reads the reply", async ({
  page,
  browser,
}) => {
  await signIn(page, DEMO.fresher, "/complaint");
  await expect(page.locator("form[data-enhanced]")).toHaveCount(1);
  await page.getByLabel("Subject").fill("Matric number not on my record");
  await page
    .getByLabel("Message")
    .fill("My admission letter has a matric number\nbut the portal shows none.");
  await page.getByRole("button", { name: "Send Complaint" }).click();
  const sent = page.getByRole("status").filter({ hasText: "Successful! Complaint has been sent" });
  await expect(sent).toHaveText(
    /^Successful! Complaint has been sent\. Your ticket number is CMP-[A-Z2-9]{6}\.$/,
  );
  const ticket = /CMP-[A-Z2-9]{6}/.exec((await sent.textContent())!)![0];

  await page.reload();
  const mine = page.getByRole("region", { name: "My complaints" });
  await expect(mine.getByText(`${ticket} · Open`)).toBeVisible();

  const desk = await browser.newPage();
  await staffSignIn(desk, "support@college.example");
  await desk
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Complaints" })
    .click();
  await expect(desk.getByRole("heading", { name: "Complaints" })).toBeVisible();
  await desk.getByRole("link", { name: ticket }).click();
  await expect(
    desk.getByRole("heading", { name: `${ticket}: Matric number not on my record` }),
  ).toBeVisible();
  await expect(desk.getByText("but the portal shows none.")).toBeVisible();
  await desk
    .getByLabel("Reply", { exact: true })
    .fill("Your matric number is now on your record.\nSign out and in again to see it.");
  await desk.getByRole("button", { name: "Send reply" }).click();
  await expect(desk.getByRole("status")).toContainText(`${ticket} is now answered.`);
  await expect(desk.getByText("Answered", { exact: true })).toBeVisible();

  // The reply is e-mailed to the address on the student's record.
  const mail = await mailInOutbox(desk, `Reply to your complaint ${ticket}`);
  await expect(mail).toContainText("to ibrahim.bello@example.com");
  await expect(mail).toContainText("Your matric number is now on your record.");
  await desk.close();

  await page.reload();
  await expect(mine.getByText(`${ticket} · Answered`)).toBeVisible();
  await expect(mine.getByRole("list", { name: `Replies to ${ticket}` })).toContainText(
    "Your matric number is now on your record.",
  );
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the help desk closes a complaint on plain forms and the student sees it closed", async ({
    page,
    browser,
  }) => {
    await page.goto("/login?next=%2Fcomplaint");
    await page.getByLabel("Phone number").fill(DEMO.fresher.phone);
    await page.getByLabel("Password", { exact: true }).fill(DEMO.fresher.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByLabel("Subject").fill("Hostel allocation");
    await page.getByLabel("Message").fill("I paid but have no room yet.");
    await page.getByRole("button", { name: "Send Complaint" }).click();
    await expect(page.getByRole("status")).toHaveText(
      /^Successful! Complaint has been sent\. Your ticket number is CMP-[A-Z2-9]{6}\.$/,
    );
    const ticket = new URL(page.url()).searchParams.get("ticket")!;

    const desk = await browser.newPage({ javaScriptEnabled: false });
    await staffSignIn(desk, "support@college.example");
    await desk.goto(`/staff/complaints/${ticket}`);
    await desk.getByRole("button", { name: "Close complaint" }).click();
    await expect(desk.getByRole("status")).toContainText(`${ticket} is closed.`);
    await expect(desk.getByRole("button", { name: "Reopen complaint" })).toBeVisible();
    await desk.close();

    await page.goto("/complaint");
    await expect(page.getByText(`${ticket} · Closed`)).toBeVisible();
  });
});
