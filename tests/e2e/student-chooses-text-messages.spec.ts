import { expect, test } from "@playwright/test";
import { freshStudent } from "./fresh-student.ts";
import { signInWithoutJavaScript } from "./support.ts";

// On the biodata page a student chooses what comes by SMS besides codes and receipts, with a plain
// form that needs no JavaScript (decision 200).
test.use({ javaScriptEnabled: false });

test("a student turns registration news by SMS off and on again from the biodata page", async ({
  page,
  browser,
}) => {
  const student = await freshStudent(browser, 202);
  await signInWithoutJavaScript(page, student, "/biodata");
  const texts = page.getByRole("region", { name: "Text messages" });
  await expect(texts).toContainText("Password codes and payment receipts always come by SMS");
  const news = texts.getByLabel("Course registration approved or sent back");
  await expect(news).toBeChecked();

  await news.uncheck();
  await texts.getByRole("button", { name: "Save text choices" }).click();
  await expect(page).toHaveURL("/biodata?texts=saved#texts");
  await expect(texts.getByRole("status")).toHaveText("Your text message choices are saved.");
  await expect(news).not.toBeChecked();

  await page.reload();
  await expect(news).not.toBeChecked();
  // The other choices (decision 201) were saved as they were shown: on.
  await expect(texts.getByLabel("Semester results published")).toBeChecked();
  await expect(
    texts.getByLabel("Reminders before school fee and course registration deadlines"),
  ).toBeChecked();
  await news.check();
  await texts.getByRole("button", { name: "Save text choices" }).click();
  await expect(news).toBeChecked();
});
