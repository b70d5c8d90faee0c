import { expect, test, type Page } from "@playwright/test";
import { PORTAL_ORIGIN, signIn } from "./support.ts";

const HEADER =
  "matric_no,application_no,surname,othername,phone,email,programme,department,level,entry_session,entry_mode,study_mode";
const FIRST_NAMES = ["Adaeze", "Bukola", "Chinedu", "Danjuma", "Efosa", "Funmilayo"];

/** Thirty students of the demo college's Biology department, as a registry spreadsheet exports them. */
function intakeFile(change: (n: number, cells: string[]) => string[] = (_n, cells) => cells) {
  const rows = Array.from({ length: 30 }, (_, index) => {
    const n = index + 1;
    const number = String(n).padStart(3, "0");
    const cells = [
      `COE/2025/BIO/${number}`,
      `APP/2025/${number}`,
      "Eze",
      `${FIRST_NAMES[n % FIRST_NAMES.length]} Ngozi`,
      `0814500${String(n).padStart(4, "0")}`,
      `eze.${number}@students.example`,
      "NCE Biology/Chemistry",
      "Biology",
      "100",
      "2025/2026",
      "UTME",
      "Full Time",
    ];
    return change(n, cells).join(",");
  });
  // A spreadsheet's "CSV UTF-8": a byte-order mark and CRLF line ends.
  return Buffer.from(`\uFEFF${[HEADER, ...rows].join("\r\n")}\r\n`, "utf-8");
}

async function registrySignIn(page: Page) {
  await page.goto("/staff/login");
  await page.getByLabel("E-mail address").fill("registry@college.example");
  await page.getByLabel("Password").fill("demo1234");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
}

async function chooseFile(page: Page, buffer: Buffer) {
  await page
    .getByLabel("CSV file")
    .setInputFiles({ name: "intake-2025.csv", mimeType: "text/csv", buffer });
}

/** The activation link mailed to `email`, from the development outbox. */
async function mailedActivationLink(page: Page, email: string) {
  let link = "";
  await expect
    .poll(async () => {
      await page.goto("/api/dev/outbox");
      const mail = page
        .locator("article")
        .filter({ hasText: "Activate your student portal account" })
        .filter({ hasText: `to ${email}` })
        .first();
      if ((await mail.count()) === 0) return "";
      link =
        (await mail
          .getByRole("link")
          .filter({ hasText: "/password/reset/" })
          .first()
          .getAttribute("href")) ?? "";
      return link;
    })
    .toMatch(new RegExp(`^${PORTAL_ORIGIN}/password/reset/[A-Za-z0-9_-]+/[A-Za-z0-9_-]{43}$`));
  return link;
}

test("the registry imports a CSV of 30 students (preview first, then for real), one of them activates their account through the e-mailed link and signs in and sees their dashboard", async ({
  page,
  browser,
}) => {
  await registrySignIn(page);
  await page
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Students" })
    .click();
  await page.getByRole("link", { name: "Import students from a CSV file" }).click();

  await chooseFile(page, intakeFile());
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Dry run: 30 would be created, 0 updated, 0 unchanged. Nothing was written.",
  );
  await page.goto("/staff/students?q=COE/2025/BIO");
  await expect(page.getByRole("status")).toContainText(/^0 students/);

  await page.goto("/staff/students/import");
  await chooseFile(page, intakeFile());
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Imported 30 rows: 30 created, 0 updated, 0 unchanged.",
  );

  // Checked again with one e-mail and one level changed: the check lists both, as stored and as in the file.
  await page.goto("/staff/students/import");
  await chooseFile(
    page,
    intakeFile((n, cells) =>
      n === 3 ? cells.with(5, "ngozi.eze@mail.example") : n === 5 ? cells.with(8, "200") : cells,
    ),
  );
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Dry run: 0 would be created, 2 updated, 28 unchanged. Nothing was written.",
  );
  await expect(
    page.getByText("1 student's phone number or e-mail address would be replaced by the file's."),
  ).toBeVisible();
  const changes = page.getByRole("table", { name: /Would change/ });
  await expect(
    changes.getByRole("row", {
      name: "4 COE/2025/BIO/003 email eze.003@students.example ngozi.eze@mail.example",
    }),
  ).toBeVisible();
  await expect(
    changes.getByRole("row", { name: "6 COE/2025/BIO/005 level 100 200" }),
  ).toBeVisible();

  await page.goto("/staff/students");
  await page.getByLabel("Matric number, name or phone").fill("COE/2025/BIO/007");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("row", { name: /COE\/2025\/BIO\/007/ })).toContainText(
    "Not activated",
  );
  await page.getByRole("link", { name: "COE/2025/BIO/007" }).click();
  await expect(page.getByRole("heading", { name: "Eze Bukola Ngozi" })).toBeVisible();
  await page
    .getByRole("button", { name: "Send activation link to eze.007@students.example" })
    .click();
  await expect(page.getByRole("status")).toContainText(
    "An activation link is on its way to eze.007@students.example",
  );

  const student = await browser.newPage();
  await student.goto(await mailedActivationLink(student, "eze.007@students.example"));
  await expect(student.getByRole("heading", { name: "Reset Your Password" })).toBeVisible();
  await expect(student.locator("form[data-enhanced]")).toHaveCount(1);
  await student.getByLabel("Password", { exact: true }).fill("Enugu-Harmattan-25");
  await student.getByLabel("Confirm Password").fill("Enugu-Harmattan-25");
  await student.getByRole("button", { name: "Submit" }).click();
  await expect(student).toHaveURL("/login?password_changed=1");
  await signIn(student, { phone: "08145000007", password: "Enugu-Harmattan-25" });
  await expect(student.getByRole("heading", { name: "Welcome, Bukola Ngozi" })).toBeVisible();
  await student.close();

  await page.reload();
  await expect(
    page.getByText("The student has chosen a password and signs in with 08145000007."),
  ).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a file with bad rows shows each one in a table and writes nothing; the record page locks the biodata with a reason", async ({
    page,
  }) => {
    await registrySignIn(page);
    await page.goto("/staff/students/import");
    const broken = intakeFile((n, cells) => {
      if (n === 4) cells[8] = "600";
      if (n === 9) cells[6] = '"=HYPERLINK(""http://evil.example"",""Click"")"';
      return cells.map((cell, column) =>
        column === 0
          ? cell.replace("2025", "2026")
          : column === 4
            ? cell.replace("08145", "08146")
            : column === 5
              ? `x${cell}`
              : column === 1
                ? `${cell}X`
                : cell,
      );
    });
    await chooseFile(page, broken);
    await page.getByRole("button", { name: "Import" }).click();
    await expect(page.getByRole("alert")).toContainText(
      "2 rows cannot be imported; nothing was written.",
    );
    const table = page.getByRole("table", { name: /Rows that cannot be imported/ });
    await expect(table.getByRole("row", { name: /^5 level/ })).toContainText(
      "The level must be 100, 200, 300, 400 or 500.",
    );
    await expect(table.getByRole("row", { name: /^10 programme/ })).toContainText(
      'There is no programme named "=HYPERLINK(',
    );
    await page.goto("/staff/students?q=COE/2026");
    await expect(page.getByRole("status")).toContainText(/^0 students/);

    await page.goto("/staff/students?q=08030000001");
    await page
      .getByRole("row", { name: /Okonkwo/ })
      .getByRole("link")
      .click();
    await page
      .getByLabel("Reason the student will see")
      .fill("Checked against your admission documents");
    await page.getByRole("button", { name: "Lock the biodata" }).click();
    await expect(page.getByRole("status")).toContainText("The biodata is locked.");
    await page.getByRole("button", { name: "Unlock the biodata" }).click();
    await expect(page.getByRole("status")).toContainText("The biodata is unlocked");
  });
});
