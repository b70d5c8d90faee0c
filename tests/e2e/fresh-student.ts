import { expect, type Browser } from "@playwright/test";
import { rememberStaffSession, resumeStaffSession } from "./staff-sign-in.ts";
import { mailInOutbox, PORTAL_ORIGIN } from "./support.ts";

const REGISTRY = "registry@college.example";

const HEADER =
  "matric_no,application_no,surname,othername,phone,email,programme,department,level,entry_session,entry_mode,study_mode";
const PASSWORD = "Kaduna-Rainy-Season-25";
const NAMES = [
  "Adamu",
  "Bisi",
  "Chidi",
  "Dayo",
  "Emeka",
  "Fatima",
  "Garba",
  "Halima",
  "Ifeoma",
  "Jide",
];

/** One import row for student `n`: its own phone, matric number and names; no e-mail when told. */
function studentRow(n: number, { withEmail }: { withEmail: boolean }) {
  const number = String(900 + n);
  const phone = `0815900${String(n).padStart(4, "0")}`;
  const email = withEmail ? `fresh.${number}@students.example` : "";
  const row = [
    `COE/2024/FEE/${number}`,
    `APP/2024/FEE/${number}`,
    "Fresh",
    `${NAMES[n % 10]} ${NAMES[Math.floor(n / 10) % 10]}`,
    phone,
    email,
    "NCE Biology/Chemistry",
    "Biology",
    "100",
    "2024/2025",
    "UTME",
    "Full Time",
  ];
  return { row, phone, email, matricNo: row[0]!, name: `${row[2]} ${row[3]}` };
}

/** Imports one row as the registry would (a one-row CSV), and leaves the page on its record. */
async function importAsRegistry(browser: Browser, row: string[]) {
  // The staff pages and the activation form run with scripts, whatever the journey tests.
  const context = await browser.newContext({ baseURL: PORTAL_ORIGIN, javaScriptEnabled: true });
  const page = await context.newPage();
  // The registry signs in once a run, and each new student after the first reuses that session:
  // its sign-in is the staff journeys' to test, and here it cost a second a student.
  if (!(await resumeStaffSession(page, REGISTRY, "/staff/students/import"))) {
    await page.goto("/staff/login");
    await page.getByLabel("E-mail address").fill(REGISTRY);
    await page.getByLabel("Password").fill("demo1234");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
    await rememberStaffSession(page, REGISTRY);
    await page.goto("/staff/students/import");
  }
  await page.getByLabel("CSV file").setInputFiles({
    name: "one.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`${HEADER}\n${row.join(",")}\n`),
  });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status")).toContainText("Imported 1 row");
  await page.goto(`/staff/students?q=${encodeURIComponent(row[0]!)}`);
  await page.getByRole("link", { name: row[0]! }).click();
  return { context, page };
}

/**
 * A new 100-level student imported without an e-mail address and not yet activated, as many are:
 * they set their first password with a code by SMS (decision 200). `n` as for freshStudent.
 */
export async function importedWithoutEmail(browser: Browser, n: number) {
  const student = studentRow(n, { withEmail: false });
  const { context } = await importAsRegistry(browser, student.row);
  await context.close();
  return { phone: student.phone, matricNo: student.matricNo, name: student.name };
}

/**
 * A new 100-level student with nothing paid, as the registry would add one: a one-row CSV import,
 * the activation link from the outbox, a password. Each journey gets its own, so journeys that pay
 * the same fee do not depend on the order they run in. `n` must differ between calls in a run.
 */
export async function freshStudent(browser: Browser, n: number) {
  const { row, phone, email, matricNo, name } = studentRow(n, { withEmail: true });
  const { context, page } = await importAsRegistry(browser, row);
  await page.getByRole("button", { name: `Send activation link to ${email}` }).click();
  await expect(page.getByRole("status")).toContainText("An activation link is on its way");

  const mail = await mailInOutbox(page, `to ${email}`);
  const link = (await mail
    .getByRole("link")
    .filter({ hasText: "/password/reset/" })
    .first()
    .getAttribute("href"))!;
  await page.goto(link);
  await expect(page.locator("form[data-enhanced]")).toHaveCount(1);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page).toHaveURL("/login?password_changed=1");
  await context.close();
  return { phone, email, password: PASSWORD, matricNo, name };
}
