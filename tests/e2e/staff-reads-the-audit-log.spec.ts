import { expect, test, type Page } from "@playwright/test";
import { freshStudent } from "./fresh-student.ts";
import { signIn } from "./support.ts";
import { signInAsAdministrator, staffSignIn } from "./staff-sign-in.ts";

// Desktop width: the registry and the administrator read the log at their desks.
test.use({ viewport: { width: 1280, height: 900 } });

const REPLY = "We have your hospital letter; the make-up test is on Monday.";
// Today in Lagos as the log writes it: DD-MM-YYYY.
const lagosToday = () => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: "Africa/Lagos",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    })
      .formatToParts(new Date())
      .map((part) => [part.type, part.value]),
  );
  return `${parts.day}-${parts.month}-${parts.year}`;
};

async function searchByMatric(page: Page, matric: string) {
  await page.goto("/staff/audit");
  await page.getByLabel("Matric number").fill(matric);
  await page.getByRole("button", { name: "Search" }).click();
}

test("the registry and the administrator read the audit log by name, in Lagos time, each inside their walls", async ({
  page,
  browser,
}) => {
  // A new student, a complaint and three sign-ins: longer than one page's journey.
  test.setTimeout(180_000);
  const student = await freshStudent(browser, 131);
  const matric = "COE/2024/FEE/1031";

  // The student complains; the help desk answers with details the registry must not read.
  const studentPage = await browser.newPage();
  await signIn(studentPage, student, "/complaint");
  await studentPage.getByLabel("Subject").fill("Missed the test");
  await studentPage.getByLabel("Message").fill("I was in hospital on the day of the test.");
  await studentPage.getByRole("button", { name: "Send Complaint" }).click();
  const sent = studentPage.getByRole("status").filter({ hasText: "Complaint has been sent" });
  const ticket = /CMP-[A-Z2-9]{6}/.exec((await sent.textContent())!)![0];
  await studentPage.close();
  const desk = await browser.newPage();
  await staffSignIn(desk, "support@college.example");
  await desk.goto(`/staff/complaints/${ticket}`);
  await desk.getByLabel("Reply", { exact: true }).fill(REPLY);
  await desk.getByRole("button", { name: "Send reply" }).click();
  await expect(desk.getByRole("status")).toContainText(`${ticket} is now answered.`);
  await desk.close();

  // The registry: the student by name and matric number, changes as fields, Lagos time.
  await staffSignIn(page, "registry@college.example");
  await page
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Audit log" })
    .click();
  await expect(page.getByText("Times are Lagos time (WAT, UTC+1).")).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "When (Lagos time)" })).toBeVisible();
  await searchByMatric(page, matric);
  await expect(page).toHaveURL(/matric_no=COE%2F2024%2FFEE%2F1031/);
  const activated = page.getByRole("row", { name: /Student chose a first password/ });
  await expect(activated).toContainText(`Bisi Dayo Fresh (${matric}), the student`);
  await expect(activated).toContainText(lagosToday());
  const added = page.getByRole("row", { name: /Student added by an import/ });
  await expect(added).toContainText(`Student Bisi Dayo Fresh (${matric})`);
  await expect(added.getByRole("listitem").filter({ hasText: "Study mode:" })).toHaveText(
    "Study mode: Full Time",
  );
  await expect(page.getByRole("row", { name: /Activation link sent/ })).toContainText(
    "registry@college.example",
  );
  // The wall: no complaint of this student, and no reply text, anywhere on the registry's log.
  await expect(page.getByRole("row", { name: /Complaint answered/ })).toHaveCount(0);
  await expect(page.getByText(REPLY)).toHaveCount(0);
  await page.getByLabel("Action").selectOption({ label: "Complaint answered" });
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("status")).toHaveText("No entries match this search.");

  // The import's summary opens onto the row of each student it wrote.
  await page.goto("/staff/audit");
  await page.getByLabel("Action").selectOption({ label: "Students imported from a file" });
  await page.getByRole("button", { name: "Search" }).click();
  const summary = page.getByRole("row", { name: /Students imported from a file/ }).first();
  await expect(summary).toContainText("Created: 1");
  await summary.getByRole("link", { name: "Show the 1 record of this import" }).click();
  await expect(page.getByText("Showing one import")).toBeVisible();
  await expect(page.getByRole("row", { name: /Student added by an import/ })).toHaveCount(1);

  // The administrator: who did what on the complaint, without its text.
  const admin = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signInAsAdministrator(admin);
  await searchByMatric(admin, matric);
  const answered = admin.getByRole("row", { name: /Complaint answered/ });
  await expect(answered).toContainText(`Complaint ${ticket} from Bisi Dayo Fresh (${matric})`);
  await expect(answered).toContainText("support@college.example");
  await expect(answered).toContainText("Status: open → answered");
  await expect(answered).toContainText("Not shown to your role: Reply.");
  await expect(admin.getByText(REPLY)).toHaveCount(0);
  await admin.getByLabel("Matric number").fill("");
  await admin.getByLabel("Staff e-mail").fill("support@college.example");
  await admin.getByRole("button", { name: "Search" }).click();
  await expect(admin.getByRole("row", { name: /Complaint answered/ }).first()).toBeVisible();
  await admin.close();
});
