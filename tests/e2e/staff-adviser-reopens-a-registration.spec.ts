import { expect, test, type Page } from "@playwright/test";
import { freshStudent } from "./fresh-student.ts";
import { mailInOutbox, signIn, waitForIslands } from "./support.ts";
import { staffSignIn } from "./staff-sign-in.ts";

// A fresh student of this journey's own (the adviser's Biology, 100 level): nobody else's
// registration is approved or reopened here. 2024/2025's registration is open (an earlier journey
// opened it from today for a week), so the adviser may reopen.
const ADVISER_NAME = "Dr. Musa Abdullahi";
const REGISTRY_NAME = "Ngozi Eze";

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

test("the adviser's list opens on what waits; an approval asks first; the adviser and then the registry reopen it with a reason the student reads", async ({
  page,
  browser,
}) => {
  const fresh = await freshStudent(browser, 121);
  const name = "Fresh Bisi Chidi";
  await signIn(page, fresh, "/course-reg");
  await registerFirstSemester(page, ["BIO 111", "GSE 111"]);

  // The adviser works on plain server-rendered forms: no JavaScript at all.
  const staffContext = await browser.newContext({ javaScriptEnabled: false });
  const adviser = await staffContext.newPage();
  await staffSignIn(adviser, "adviser@college.example");
  await adviser
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Course registrations" })
    .click();
  await expect(adviser.getByLabel("Status")).toHaveValue("waiting");
  await expect(
    adviser.getByRole("heading", { name: /registrations? waiting for review in every session/ }),
  ).toBeVisible();
  const table = adviser.getByRole("table", { name: "Students' course registrations" });
  // Every row waits for the adviser (the header row aside).
  await expect(table.getByRole("row").filter({ hasNotText: "Pending" })).toHaveCount(1);
  const row = table.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText("2024/2025");
  await expect(row).toContainText("Pending");
  // Students who have not submitted are a filter away.
  await adviser.getByLabel("Status").selectOption({ label: "Not submitted" });
  await adviser.getByRole("button", { name: "Filter" }).click();
  await expect(
    adviser.getByRole("table", { name: "Students' course registrations" }).getByRole("row").last(),
  ).toContainText("Not submitted");
  await adviser.goto("/staff/registrations");

  await row.getByRole("link", { name }).click();
  await adviser.getByRole("button", { name: "Approve First Semester…", exact: true }).click();
  const approval = adviser.getByRole("region", { name: "Approve First Semester for 2024/2025?" });
  await expect(approval).toContainText("2 courses");
  await expect(approval).toContainText(
    "Once approved, the student can no longer add or drop courses in it.",
  );
  // Cancel changes nothing.
  await approval.getByRole("link", { name: "Cancel" }).click();
  await expect(adviser.getByRole("heading", { name: "First Semester: Pending" })).toBeVisible();
  await adviser.getByRole("button", { name: "Approve First Semester…", exact: true }).click();
  await adviser.getByRole("button", { name: "Yes, approve First Semester" }).click();
  await expect(adviser.getByRole("status")).toHaveText(
    `First Semester registration for 2024/2025 approved: ${name} can no longer change it.`,
  );

  // The adviser reopens it while registration is open: a reason is required, and asked to confirm.
  const reason = "GSE 111 is not for your programme this year: take BIO 112 instead.";
  await adviser.getByLabel("Reason for reopening (the student reads it)").first().fill(reason);
  await adviser.getByRole("button", { name: "Reopen First Semester…" }).click();
  const reopening = adviser.getByRole("region", {
    name: "Reopen the approved First Semester for 2024/2025?",
  });
  await expect(reopening).toContainText(`The approval by ${ADVISER_NAME}`);
  await expect(reopening).toContainText(reason);
  await reopening.getByRole("button", { name: "Yes, reopen First Semester" }).click();
  await expect(adviser.getByRole("status")).toHaveText(
    `First Semester registration for 2024/2025 reopened: ${name} can change it again and has been told why by e-mail, by SMS and on the portal.`,
  );
  await expect(adviser.getByRole("heading", { name: "First Semester: Returned" })).toBeVisible();

  // The student is told: by e-mail, and on the dashboard with a link to fix it.
  const mail = await mailInOutbox(adviser, `to ${fresh.email}`, "was reopened");
  await expect(mail).toContainText(reason);
  await page.goto("/");
  const notice = page.getByRole("region", { name: "Course registration returned to you" });
  await expect(notice).toContainText(
    `First Semester course registration: Returned by ${ADVISER_NAME}`,
  );
  await expect(notice).toContainText(reason);
  await notice.getByRole("link", { name: "Change your First Semester courses" }).click();
  await expect(page).toHaveURL(/\/course-reg$/);
  await registerFirstSemester(page, ["BIO 112"]);

  // Changed after the return: waiting again, after first submissions, and marked.
  await adviser.goto("/staff/registrations");
  const changed = adviser
    .getByRole("table", { name: "Students' course registrations" })
    .getByRole("row", { name: new RegExp(name) });
  await expect(changed).toContainText("Pending (changed since returned)");
  await changed.getByRole("link", { name }).click();
  await adviser.getByRole("button", { name: "Approve First Semester…", exact: true }).click();
  await adviser.getByRole("button", { name: "Yes, approve First Semester" }).click();
  await expect(adviser.getByRole("status")).toHaveText(
    `First Semester registration for 2024/2025 approved: ${name} can no longer change it.`,
  );
  await staffContext.close();

  // The registry reopens it too (it may at any time), and the student is told who.
  const registryContext = await browser.newContext({ javaScriptEnabled: false });
  const registry = await registryContext.newPage();
  await staffSignIn(registry, "registry@college.example");
  await registry.goto("/staff/registrations?status=approved&session=2024%2F2025");
  await registry
    .getByRole("row", { name: new RegExp(name) })
    .getByRole("link", { name })
    .click();
  await registry
    .getByLabel("Reason for reopening (the student reads it)")
    .first()
    .fill("The senate approved your change of programme.");
  await registry.getByRole("button", { name: "Reopen First Semester…" }).click();
  await registry.getByRole("button", { name: "Yes, reopen First Semester" }).click();
  await expect(registry.getByRole("status")).toContainText(
    "First Semester registration for 2024/2025 reopened",
  );
  await page.goto("/");
  await expect(
    page.getByRole("region", { name: "Course registration returned to you" }),
  ).toContainText(`Returned by ${REGISTRY_NAME}`);
  await registryContext.close();
});
