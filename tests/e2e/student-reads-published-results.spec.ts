import { expect, test } from "@playwright/test";
import { DEMO, signIn, signInWithoutJavaScript } from "./support.ts";

// The demo published Chiamaka's 2023/2024 first semester (server/results/seed.ts): one compulsory
// course failed, paid for with the session's first installment, which opens the first semester.
for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });

    test("a student reads her published semester: grades, GPA, CGPA, standing and her carry-over", async ({
      page,
    }) => {
      await (javaScriptEnabled ? signIn : signInWithoutJavaScript)(page, DEMO.returning, "/");
      await page
        .getByRole("complementary", { name: "Main menu" })
        .getByRole("link", { name: "Results" })
        .click({ force: !javaScriptEnabled });
      await expect(page).toHaveURL("/results");
      await expect(page.getByRole("heading", { name: "My Results" })).toBeVisible();
      const semester = page.getByRole("region", { name: "2023/2024 — First Semester" });
      await expect(semester).toBeVisible();
      await expect(semester.getByRole("row")).not.toHaveCount(1);
      await expect(semester.getByRole("cell", { name: "F", exact: true })).toHaveCount(1);
      await expect(semester.getByTestId("gpa")).toHaveText(/^\d\.\d\d$/);
      await expect(semester.getByText("Good standing")).toBeVisible();
      await expect(semester.getByTestId("carry-overs")).toContainText(
        "To register again (carry-over):",
      );
      // The second semester is not published, so nothing of it shows.
      await expect(page.getByText("Second Semester")).toHaveCount(0);
    });
  });
}
