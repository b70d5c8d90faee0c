import { expect, test } from "@playwright/test";
import { lowContrastText } from "./contrast.ts";
import { DEMO, mailInOutbox, signIn } from "./support.ts";

test("a student sends a complaint and the support desk gets a copy", async ({ page }) => {
  await signIn(page, DEMO.returning, "/complaint");
  await expect(page.getByRole("heading", { name: "Complaint Management" })).toBeVisible();
  await expect(page.locator("form[data-enhanced]")).toHaveCount(1);
  const subject = page.getByLabel("Subject");
  const message = page.getByLabel("Message");
  await subject.fill("Missing result for EDU 211");
  await message.fill(
    "My EDU 211 result from last semester does not show on my record. Please check.",
  );

  // Hold the request so the sending state can be seen.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/complaint/", async (route) => {
    await held;
    await route.continue();
  });
  const send = page.getByRole("button", { name: "Send Complaint" });
  await send.click();
  await expect(send).toBeDisabled();
  release();

  await expect(
    page.getByRole("status").filter({ hasText: "Successful! Complaint has been sent" }),
  ).toBeVisible();
  await expect(send).toBeEnabled();
  await expect(subject).toHaveValue("");
  await expect(message).toHaveValue("");

  // Development mail goes to the outbox; the copy carries the account's name, not the form's.
  const copy = await mailInOutbox(page, "Missing result for EDU 211");
  await expect(copy).toContainText("to support@college.example");
  await expect(copy).toContainText("Name: Okonkwo Chiamaka Grace");
});

test("a complaint that is too long is refused with the server's reason and kept in the form", async ({
  page,
}) => {
  await signIn(page, DEMO.returning, "/complaint");
  await expect(page.locator("form[data-enhanced]")).toHaveCount(1);
  await page.getByLabel("Subject").fill("Fees");
  // maxlength stops typing past the limit, so the value is set directly, as another client could.
  await page
    .getByLabel("Message")
    .evaluate((field: HTMLTextAreaElement) => (field.value = "m".repeat(5001)));
  await page.getByRole("button", { name: "Send Complaint" }).click();
  await expect(page.getByText("Keep the message to 5000 characters or fewer.")).toBeVisible();
  await expect(page.getByLabel("Subject")).toHaveValue("Fees");
  await expect(page.getByRole("status").filter({ hasText: "Successful!" })).toHaveCount(0);
});

test("a student browses the library carousel and opens an item in a new tab", async ({
  page,
  context,
}) => {
  await signIn(page, DEMO.returning, "/library");
  await expect(page.getByRole("heading", { name: "My Library", level: 1 })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText(
    "Library Management",
  );

  const carousel = page.getByRole("region", { name: "Library highlights" });
  const position = carousel.getByText(/^Slide \d of 3$/);
  await expect(position).toHaveText("Slide 1 of 3");
  // WCAG AA: every text on the page, the slide position included.
  expect(await lowContrastText(page)).toEqual([]);
  await carousel.getByRole("button", { name: "Next slide" }).click();
  await expect(position).toHaveText("Slide 2 of 3");
  await expect(
    carousel.getByRole("heading", { name: "NCE curriculum documents" }),
  ).toBeInViewport();
  // Keyboard: the controls are buttons, reached with Tab and pressed with Enter.
  await carousel.getByRole("button", { name: "Previous slide" }).focus();
  await page.keyboard.press("Enter");
  await expect(position).toHaveText("Slide 1 of 3");
  await page.keyboard.press("Enter");
  await expect(position).toHaveText("Slide 3 of 3");

  const cards = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("link", { name: /^Open/ }) });
  await expect(cards).toHaveCount(12);
  const card = cards.filter({ hasText: "Biology 2e: an open textbook (OpenStax)" });
  // No invented rating or price on an item (decision 165).
  await expect(card).not.toContainText(/free|★|☆/i);
  await expect(card.getByRole("img", { name: /^Rated/ })).toHaveCount(0);
  const open = card.getByRole("link", { name: /^Open/ });
  await expect(open).toHaveAttribute("target", "_blank");
  await expect(open).toHaveAttribute("rel", "noopener noreferrer");

  // The test machine has no internet: answer the item's address with a stand-in page.
  await context.route("https://openstax.org/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<title>Stand-in</title>" }),
  );
  const [tab] = await Promise.all([context.waitForEvent("page"), open.click()]);
  await expect(tab).toHaveURL("https://openstax.org/details/books/biology-2e");
  expect(await tab.evaluate(() => window.opener)).toBeNull();
  await expect(page).toHaveURL("/library");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the complaint form still sends, and the library still lists its items", async ({
    page,
  }) => {
    await page.goto("/login?next=%2Fcomplaint");
    await page.getByLabel("Phone number").fill(DEMO.returning.phone);
    await page.getByLabel("Password", { exact: true }).fill(DEMO.returning.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL("/complaint");

    await page.getByLabel("Subject").fill("Hostel light");
    await page.getByLabel("Message").fill("The corridor light in Block B has been off for a week.");
    await page.getByRole("button", { name: "Send Complaint" }).click();
    await expect(page).toHaveURL(/\/complaint\?sent=1&ticket=CMP-[A-Z2-9]{6}$/);
    await expect(page.getByRole("status")).toContainText("Successful! Complaint has been sent");
    await expect(page.getByLabel("Subject")).toHaveValue("");

    await page.goto("/library");
    await expect(page.getByRole("link", { name: /^Open/ })).toHaveCount(12);
    // The slides scroll sideways; buttons that could not work without scripts stay hidden.
    await expect(page.getByRole("button", { name: "Next slide" })).toBeHidden();
    await expect(page.getByRole("heading", { name: "Open textbooks, free to read" })).toBeVisible();
  });
});
