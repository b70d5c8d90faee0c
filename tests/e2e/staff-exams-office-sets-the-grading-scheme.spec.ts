import { expect, test } from "@playwright/test";
import { signInWithAuthenticator } from "./staff-sign-in.ts";

const EXAMS = "exams@college.example";

// Plain form posts: the page is what an exams officer on a slow line or without JavaScript gets.
test.use({ javaScriptEnabled: false });

test("the exams office sets a grading scheme, and cannot regrade a published session", async ({
  page,
}) => {
  await signInWithAuthenticator(page, EXAMS);
  await page
    .getByRole("navigation", { name: "Staff menu" })
    .getByRole("link", { name: "Grading scheme" })
    .click();
  await expect(page.getByRole("heading", { name: "Grading scheme", level: 1 })).toBeVisible();
  await expect(
    page.getByText("None yet: every session is graded by the NCE five-point scale."),
  ).toBeVisible();

  // The form starts from the scheme in force: the NCE scale.
  await expect(page.getByLabel("CA out of")).toHaveValue("40");
  await expect(page.getByLabel("Grade 1: letter")).toHaveValue("A");
  await expect(page.getByLabel("Grade 1: from mark")).toHaveValue("70");
  await expect(page.getByLabel("Class 3: name")).toHaveValue("Merit");

  // A gap between two grades is refused with the reason, and the form keeps what was typed.
  await page.getByLabel("From session").selectOption("2024/2025");
  await page.getByLabel("Grade 2: from mark").fill("62");
  await page.getByRole("button", { name: "Set the grading scheme" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Grade C must start where the band above ends (at 61).",
  );
  await expect(page.getByLabel("Grade 2: from mark")).toHaveValue("62");

  // Merit from 2.50: a class of certificate, which no staff page of this lane shows.
  await page.getByLabel("Grade 2: from mark").fill("60");
  await page.getByLabel("Class 3: from CGPA").fill("2.5");
  await page.getByRole("button", { name: "Set the grading scheme" }).click();
  await expect(page.getByRole("status")).toHaveText("Grading scheme set from 2024/2025");
  const row = page.getByRole("row", { name: /2024\/2025/ });
  await expect(row).toContainText("40 / 60");
  // The demo exams officer.
  await expect(row).toContainText("Tunde Bakare");

  // 2023/2024 has published results (the demo's first semester): its grades stay as published.
  await page.getByLabel("Start from the scheme in force for").selectOption("2023/2024");
  await page.getByRole("button", { name: "Open" }).click();
  await expect(page.getByLabel("Class 3: from CGPA")).toHaveValue("2.4");
  await page.getByRole("button", { name: "Set the grading scheme" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Results of 2023/2024 are published under the scheme in force: set a new scheme from a session whose results are not yet published.",
  );
  await expect(page.getByRole("row", { name: /2023\/2024/ })).toHaveCount(0);
});
