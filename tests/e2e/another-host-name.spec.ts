import { expect, test } from "@playwright/test";
import { DEMO, PORTAL_ORIGIN, PORTAL_PORT, SANDBOX_ORIGIN, waitForIslands } from "./support.ts";

// The portal's public origin is http://localhost:PORT; 127.0.0.1 reaches the same server.
const OTHER_NAME = `http://127.0.0.1:${PORTAL_PORT}`;

test("a student who opens the portal at 127.0.0.1 is moved to its public address, pays and comes back signed in", async ({
  page,
}) => {
  await page.goto(`${OTHER_NAME}/login?next=%2Fpayment`);
  await expect(page).toHaveURL(`${PORTAL_ORIGIN}/login?next=%2Fpayment`);
  await page.getByLabel("Phone number").fill(DEMO.fresher.phone);
  await page.getByLabel("Password", { exact: true }).fill(DEMO.fresher.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${PORTAL_ORIGIN}/payment`);

  await waitForIslands(page);
  await page.getByLabel("Payment category").selectOption("latefees");
  await page.getByLabel("Level").selectOption("100");
  await page.getByLabel("Session").selectOption("2022/2023");
  await page.getByRole("button", { name: "Proceed to payment" }).click();
  await expect(page).toHaveURL(new RegExp(`^${SANDBOX_ORIGIN}/checkout/`));
  await page.getByRole("button", { name: /^Pay / }).click();

  // Back from the checkout on the origin the session cookie belongs to: still signed in.
  await expect(page).toHaveURL(`${PORTAL_ORIGIN}/successful`);
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
});

test("a form posted to the other host name is refused with a page naming the public address", async ({
  request,
}) => {
  const response = await request.post(`${OTHER_NAME}/login`, {
    form: { username: DEMO.fresher.phone, password: DEMO.fresher.password },
    headers: { origin: OTHER_NAME },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(403);
  expect(await response.text()).toContain(`Open the portal at ${PORTAL_ORIGIN} and try again.`);
  expect(response.headers()["set-cookie"]).toBeUndefined();
});
