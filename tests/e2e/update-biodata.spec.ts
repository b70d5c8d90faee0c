import { expect, test, type Page } from "@playwright/test";
import sharp from "sharp";
import { DEMO, signIn, signInWithoutJavaScript, waitForIslands } from "./support.ts";

const LOCKED = { phone: "08030000003", password: "demo1234" };

/**
 * A 2000×2000 noisy camera-like JPEG: several megabytes, as a phone photo would be. Handed to the
 * file input as a named file from memory: a copy on disk would be one more thing to remove.
 */
async function cameraPhoto() {
  const image = await sharp({
    create: {
      width: 2000,
      height: 2000,
      channels: 3,
      background: "#a0522d",
      noise: { type: "gaussian", mean: 120, sigma: 40 },
    },
  })
    .jpeg({ quality: 92 })
    .toBuffer();
  return {
    file: { name: "IMG_2041.jpg", mimeType: "image/jpeg", buffer: image },
    bytes: image.length,
  };
}

const topBarPhoto = (page: Page) => page.locator(".top-bar-user img");

test("a student gets a clear message for an impossible birth date, and nothing is saved", async ({
  page,
}) => {
  await signIn(page, DEMO.returning, "/biodata");
  await waitForIslands(page);
  await page.getByLabel("Day").fill("31");
  await page.getByLabel("Month").fill("4");

  await page.getByRole("button", { name: "Update Profile" }).click();

  const message = "31/4/2004 is not a real date: April 2004 has 30 days.";
  await expect(page.locator("#dob-error")).toHaveText(message);
  await expect(page.getByLabel("Day")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("button", { name: "Update Profile" })).toBeEnabled();
  await page.reload();
  await expect(page.getByLabel("Day")).toHaveValue("14");
});

test("a student updates biodata with a new photo and sees it in the top bar", async ({ page }) => {
  const photo = await cameraPhoto();
  expect(photo.bytes).toBeGreaterThan(2_000_000);
  await signIn(page, DEMO.returning, "/biodata");
  await waitForIslands(page);
  const oldSrc = await topBarPhoto(page).getAttribute("src");
  expect(oldSrc).toMatch(/^\/api\/student\/photo\//);

  await page.getByLabel("Passport photo").setInputFiles(photo.file);
  await expect(page.getByText(/^Ready to upload: 600×600 pixels/)).toBeVisible();
  await expect(page.getByAltText("Preview of the new passport photo")).toHaveAttribute(
    "src",
    /^blob:/,
  );
  await page.getByLabel("Marital status").selectOption("Married");
  await page.getByLabel("Religion").selectOption("Islam");
  await page.getByLabel("Day").fill("2");
  await page.getByLabel("Month").fill("3");
  await page.getByLabel("Year").fill("2003");
  await page.getByLabel("State of origin").selectOption("Lagos");
  await page.getByLabel("LGA of origin").selectOption("Ikeja");

  // Hold the upload briefly so the saving state can be seen, and measure what was sent.
  let sentBytes = 0;
  await page.route("**/api/student/biodata-update/*", async (route) => {
    sentBytes = route.request().postDataBuffer()?.length ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await page.getByRole("button", { name: "Update Profile" }).click();

  await expect(page.getByText("Updating Biodata...")).toBeVisible();
  await expect(page.getByRole("button", { name: "Update Profile" })).toBeDisabled();
  await expect(page.getByRole("progressbar")).toBeVisible();
  await expect(page.getByText("Update successful")).toBeVisible();
  // The photo crossed the network shrunk: well under a tenth of the camera file.
  expect(sentBytes).toBeGreaterThan(10_000);
  expect(sentBytes).toBeLessThan(photo.bytes / 10);

  // The page reloads with the server's new values, top bar included.
  await expect(topBarPhoto(page)).not.toHaveAttribute("src", oldSrc!);
  const newSrc = await topBarPhoto(page).getAttribute("src");
  expect(newSrc).toMatch(/^\/api\/student\/photo\/[0-9a-f-]{36}\.jpg$/);
  await expect(topBarPhoto(page)).toHaveJSProperty("naturalWidth", 600);
  await expect(
    page.getByRole("img", { name: "Passport photo of Okonkwo Chiamaka Grace" }),
  ).toHaveAttribute("src", newSrc!);
  await waitForIslands(page);
  await expect(page.getByLabel("Marital status").locator("option").first()).toHaveText("Married");
  await expect(page.getByLabel("Religion").locator("option").first()).toHaveText("Islam");
  await expect(page.getByLabel("Day")).toHaveValue("2");
  await expect(page.getByLabel("Month")).toHaveValue("3");
  await expect(page.getByLabel("Year")).toHaveValue("2003");
  await expect(page.getByLabel("State of origin")).toHaveValue("Lagos");
  await expect(page.getByLabel("LGA of origin")).toHaveValue("Ikeja");
  // The old file is gone.
  expect((await page.request.get(oldSrc!)).status()).toBe(404);

  await page.goto("/");
  await expect(
    page.getByRole("img", { name: "Passport photo of Okonkwo Chiamaka Grace" }),
  ).toHaveAttribute("src", newSrc!);
});

test("a locked record shows the form read-only with the reason", async ({ page }) => {
  await signIn(page, LOCKED, "/biodata");

  await expect(page.getByText("The registry has locked your biodata")).toBeVisible();
  await expect(
    page.getByText("The registry's reason: Checked against your admission documents"),
  ).toBeVisible();
  await expect(page.getByLabel("Email")).toBeDisabled();
  await expect(page.getByLabel("Passport photo")).toBeDisabled();
  await expect(page.getByLabel("LGA of origin")).toHaveValue("Owerri Municipal");
  await expect(page.getByRole("button", { name: "Update Profile" })).toHaveCount(0);
  await expect(page.locator("astro-island")).toHaveCount(0);
});

/** The newest confirmation link mailed to `to` (development outbox), waiting until it is new. */
async function mailedConfirmLink(page: Page, to: string, notThis = "") {
  const outbox = await page.context().newPage();
  let link = "";
  await expect
    .poll(async () => {
      await outbox.goto("/api/dev/outbox");
      const mail = outbox
        .locator("article")
        .filter({ hasText: "Confirm the change to your student portal account" })
        .filter({ hasText: `to ${to}` })
        .first();
      if ((await mail.count()) === 0) return "";
      link =
        (await mail
          .getByRole("link")
          .filter({ hasText: "/biodata/confirm/" })
          .first()
          .getAttribute("href")) ?? "";
      return link === notThis ? "" : link;
    })
    .toMatch(/\/biodata\/confirm\/[A-Za-z0-9_-]{43}$/);
  await outbox.close();
  return link;
}

/** Types a new e-mail with the password, then confirms it from the link mailed to it. */
async function changeEmail(page: Page, email: string, previousLink = "") {
  await page.goto("/biodata");
  await waitForIslands(page);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Current password").fill(DEMO.fresher.password);
  await page.getByRole("button", { name: "Update Profile" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: `open the link we sent to ${email}` }),
  ).toBeVisible();
  const link = await mailedConfirmLink(page, email, previousLink);
  await page.goto(link);
  await page.getByRole("button", { name: "Confirm the change" }).click();
  await expect(page).toHaveURL("/biodata?contact_changed=1");
  await expect(page.getByText("Your phone number or e-mail has been changed.")).toBeVisible();
  return link;
}

test("a new phone number with a wrong current password is refused, and nothing changes", async ({
  page,
}) => {
  await signIn(page, DEMO.fresher, "/biodata");
  await waitForIslands(page);
  await expect(page.getByLabel("Current password")).toHaveAttribute(
    "autocomplete",
    "current-password",
  );
  await page.getByLabel("Phone number").fill("08039990000");
  await page.getByLabel("Current password").fill("not-my-password");

  await page.getByRole("button", { name: "Update Profile" }).click();

  await expect(page.locator("#current_password-error")).toHaveText(
    "That is not your current password. Enter the password you sign in with, or leave your phone number and e-mail as they are.",
  );
  await expect(page.getByLabel("Current password")).toBeFocused();
  await page.reload();
  await expect(page.getByLabel("Phone number")).toHaveValue(DEMO.fresher.phone);
});

test("a student changes their e-mail with the mailed link, and their other devices are signed out", async ({
  page,
  browser,
}) => {
  const otherDevice = await browser.newPage();
  await signIn(otherDevice, DEMO.fresher, "/biodata");
  await signIn(page, DEMO.fresher, "/biodata");

  const link = await changeEmail(page, "ibrahim.new@example.com");

  await expect(page.getByLabel("Email")).toHaveValue("ibrahim.new@example.com");
  await otherDevice.goto("/biodata");
  await expect(otherDevice).toHaveURL(/\/login\?next=%2Fbiodata$/);
  await otherDevice.close();
  // Back to the seeded address, for journeys that reset the fresher's password by e-mail.
  await changeEmail(page, "ibrahim.bello@example.com", link);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a student updates biodata with a new camera photo; a refusal keeps what was typed", async ({
    page,
  }) => {
    const photo = await cameraPhoto();
    await signInWithoutJavaScript(page, DEMO.returning, "/biodata");
    const oldSrc = await topBarPhoto(page).getAttribute("src");
    await expect(page.getByLabel("Current password")).toHaveAttribute(
      "autocomplete",
      "current-password",
    );

    // Refused: the page says why beside the field, keeps what was typed and saves nothing.
    await page.getByLabel("Passport photo").setInputFiles(photo.file);
    await page.getByLabel("Religion").selectOption("Christianity");
    await page.getByLabel("Day").fill("31");
    await page.getByLabel("Month").fill("4");
    await page.getByLabel("Year").fill("2004");
    await page.getByRole("button", { name: "Update Profile" }).click();
    await expect(page.getByRole("alert").first()).toContainText(
      "Nothing was saved: choose your photo again.",
    );
    await expect(page.locator("#dob-error")).toHaveText(
      "31/4/2004 is not a real date: April 2004 has 30 days.",
    );
    await expect(page.getByLabel("Day")).toHaveValue("31");
    await expect(page.getByLabel("Religion")).toHaveValue("Christianity");
    await expect(topBarPhoto(page)).toHaveAttribute("src", oldSrc!);

    // Sent whole, the camera file is shrunk and re-encoded by the server.
    await page.getByLabel("Passport photo").setInputFiles(photo.file);
    await page.getByLabel("Day").fill("2");
    await page.getByLabel("Month").fill("3");
    await page.getByLabel("Year").fill("2003");
    await page.getByRole("button", { name: "Update Profile" }).click();
    await expect(page).toHaveURL("/biodata?updated=1");
    await expect(page.getByRole("status").filter({ hasText: "Update successful" })).toBeVisible();
    await expect(topBarPhoto(page)).not.toHaveAttribute("src", oldSrc!);
    await expect(topBarPhoto(page)).toHaveAttribute(
      "src",
      /^\/api\/student\/photo\/[0-9a-f-]{36}\.jpg$/,
    );
    await expect(topBarPhoto(page)).toHaveJSProperty("naturalWidth", 600);
    await expect(page.getByLabel("Religion").locator("option").first()).toHaveText("Christianity");
    await expect(page.getByLabel("Day")).toHaveValue("2");
  });

  test("a new phone number needs the current password, and then waits for the mailed link", async ({
    page,
  }) => {
    await signInWithoutJavaScript(page, DEMO.fresher, "/biodata");
    await page.getByLabel("Phone number").fill("08039990001");
    await page.getByRole("button", { name: "Update Profile" }).click();
    await expect(page.locator("#current_password-error")).toHaveText(
      "Enter your current password to change your phone number or e-mail.",
    );
    await expect(page.getByLabel("Phone number")).toHaveValue("08039990001");
    await page.getByLabel("Current password").fill(DEMO.fresher.password);
    await page.getByRole("button", { name: "Update Profile" }).click();
    await expect(page).toHaveURL("/biodata?updated=link");
    await expect(page.getByRole("status")).toContainText("open the link we e-mailed you");
    await expect(page.getByLabel("Phone number")).toHaveValue(DEMO.fresher.phone);
  });
});
