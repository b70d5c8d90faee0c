import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { staffSignIn } from "./staff-sign-in.ts";

// The demo lecturer's open course of 2024/2025 (server/results/seed.ts), whose class of five the
// adviser approved: CCE/2024/BIO/0101 to 0105.
const LECTURER = "lecturer@college.example";
const matric = (n: number) => `CCE/2024/BIO/${String(100 + n).padStart(4, "0")}`;

async function openTheOpenCourse(page: Page) {
  await page
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "My courses" })
    .click();
  await expect(page.getByRole("heading", { name: "My courses" })).toBeVisible();
  const course = page
    .getByRole("row", { name: /2024\/2025 First/ })
    .filter({ hasText: "Being entered" });
  await expect(course).toContainText("0 of 5");
  await course.getByRole("link").click();
  return page.url();
}

/** Types a row's marks and leaves the row, as a lecturer tabbing through the sheet does. */
async function enter(page: Page, n: number, marks: { ca?: string; exam?: string }) {
  if (marks.ca !== undefined) await page.getByLabel(`CA for ${matric(n)}`).fill(marks.ca);
  if (marks.exam !== undefined) await page.getByLabel(`Exam for ${matric(n)}`).fill(marks.exam);
  await page.getByLabel(`Exam for ${matric(n)}`).press("Tab");
}

const rowOf = (page: Page, n: number) =>
  page
    .getByRole("table", { name: /^Scores for/ })
    .getByRole("row", { name: new RegExp(matric(n)) });

/** The row's total and grade, as the portal computed them (cells: name, CA, exam, special, total, grade, saved). */
async function expectGraded(page: Page, n: number, total: string, grade: string) {
  const cells = rowOf(page, n).getByRole("cell");
  await expect(cells.nth(4)).toHaveText(total);
  await expect(cells.nth(5)).toHaveText(grade);
}

test("the lecturer enters scores as they go, one without JavaScript, uploads the rest as CSV, and submits the result", async ({
  page,
  browser,
}) => {
  await staffSignIn(page, LECTURER);
  await expect(page.getByRole("heading", { name: /^Welcome/ })).toBeVisible();
  const sheetUrl = await openTheOpenCourse(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^[A-Z]{3} \d{3}: /);
  await expect(page.locator("form[data-enhanced]")).toHaveCount(1);

  // Saved as the lecturer goes: total and grade come back from the portal.
  await enter(page, 1, { ca: "32", exam: "41" });
  await expect(rowOf(page, 1)).toContainText("Saved");
  await expectGraded(page, 1, "73", "A");

  // A refusal is shown beside the row and what was typed stays.
  await enter(page, 2, { ca: "45", exam: "30" });
  await expect(rowOf(page, 2)).toContainText("Not saved: CA must be a whole number from 0 to 40.");
  await expect(page.getByLabel(`CA for ${matric(2)}`)).toHaveValue("45");
  await enter(page, 2, { ca: "25" });
  await expect(rowOf(page, 2)).toContainText("Saved");
  await expectGraded(page, 2, "55", "C");

  // A save that cannot reach the portal loses nothing: the next change saves the row.
  await page.route("**/api/staff/results/offerings/*/scores", (route) => route.abort(), {
    times: 1,
  });
  await page.getByLabel(`CA for ${matric(3)}`).fill("10");
  await page.getByLabel(`CA for ${matric(3)}`).press("Tab");
  await expect(rowOf(page, 3)).toContainText("Not saved: the portal could not be reached.");
  await expect(page.getByLabel(`CA for ${matric(3)}`)).toHaveValue("10");
  await page.getByLabel(`Special mark for ${matric(3)}`).selectOption("ABS");
  await expect(rowOf(page, 3)).toContainText("Saved");
  await expectGraded(page, 3, "", "ABS");

  await page.reload();
  await expect(page.getByLabel(`CA for ${matric(1)}`)).toHaveValue("32");
  await expect(page.getByLabel(`Exam for ${matric(1)}`)).toHaveValue("41");
  await expect(page.getByLabel(`CA for ${matric(2)}`)).toHaveValue("25");
  await expect(page.getByLabel(`Special mark for ${matric(3)}`)).toHaveValue("ABS");
  await expectGraded(page, 1, "73", "A");

  // Without JavaScript: the whole table is one form; a refusal names the row and keeps the typing.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  const lecturer = await plain.newPage();
  await staffSignIn(lecturer, LECTURER);
  await lecturer.goto(sheetUrl);
  await lecturer.getByLabel(`CA for ${matric(4)}`).fill("28");
  await lecturer.getByLabel(`Exam for ${matric(4)}`).fill("70");
  await lecturer.getByRole("button", { name: "Save all scores" }).click();
  await expect(lecturer.getByRole("alert")).toHaveText(
    "1 row needs correcting; nothing was saved.",
  );
  await expect(rowOf(lecturer, 4)).toContainText(
    "Not saved: Exam must be a whole number from 0 to 60.",
  );
  await expect(lecturer.getByLabel(`Exam for ${matric(4)}`)).toHaveValue("70");
  await lecturer.getByLabel(`Exam for ${matric(4)}`).fill("36");
  await lecturer.getByRole("button", { name: "Save all scores" }).click();
  await expect(lecturer.getByRole("status")).toHaveText("1 score saved");
  await expectGraded(lecturer, 4, "64", "B");
  await plain.close();

  // The rest by CSV: the class list to fill in, a refused file that saves nothing, then the file.
  await page.reload();
  const download = page.waitForEvent("download");
  await page
    .getByRole("link", { name: "Download the class list as a CSV file to fill in" })
    .click();
  const template = readFileSync(await (await download).path(), "utf8")
    .trim()
    .split(/\r?\n/);
  expect(template[0]).toBe('"matric_no","ca","exam"');
  expect(template).toContain(`"${matric(4)}","28","36"`);
  expect(template).toContain(`"${matric(5)}","",""`);
  const filled = template.map((line) => line.replace(/,"",""$/, ',"30","S"'));
  const upload = async (lines: string[], button: string) => {
    await page.getByLabel("CSV file").setInputFiles({
      name: "scores.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(lines.join("\n") + "\n"),
    });
    await page.getByRole("button", { name: button }).click();
  };
  await upload([...filled, "CCE/2024/BIO/9999,20,20"], "Upload and save");
  await expect(page.getByRole("alert")).toContainText(
    "1 row cannot be imported; nothing was written.",
  );
  await expect(page.getByRole("table", { name: /^Rows that cannot be imported/ })).toContainText(
    "No student has this matric number.",
  );
  await expect(page.getByLabel(`CA for ${matric(5)}`)).toHaveValue("");
  await upload(filled, "Check the file");
  await expect(page.getByRole("status")).toContainText(
    "The file can be saved (1 new, 0 changed, 4 unchanged)",
  );
  await upload(filled, "Upload and save");
  await expect(page.getByRole("status")).toHaveText("Scores saved: 1 new, 0 changed, 4 unchanged.");
  await expect(page.getByLabel(`Special mark for ${matric(5)}`)).toHaveValue("S");

  // Submitting asks first, then closes the sheet.
  await page.getByRole("button", { name: "Submit to the head of department…" }).click();
  const confirm = page.getByRole("region", { name: /^Submit .* to the head of department\?$/ });
  await expect(confirm).toContainText("5 of 5 students have an exam score or a special mark.");
  await confirm.getByRole("button", { name: "Yes, submit the result" }).click();
  await expect(page.getByRole("status")).toHaveText("Result submitted to the head of department");
  await expect(page.getByText("You submitted this result to the head of department")).toBeVisible();
  await expect(page.getByRole("textbox")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save all scores" })).toHaveCount(0);
  // Read only now: name, CA, exam, total, grade.
  await expect(rowOf(page, 4).getByRole("cell")).toHaveText([/Danjuma/, "28", "36", "64", "B"]);
  await page.getByRole("link", { name: "← My courses" }).click();
  await expect(
    page
      .getByRole("row", { name: /2024\/2025/ })
      .filter({ hasText: "Submitted to the head of department" }),
  ).toContainText("5 of 5");
});
