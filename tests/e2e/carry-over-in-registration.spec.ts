import { expect, test, type Page } from "@playwright/test";
import { DEMO, signIn, signInWithoutJavaScript, waitForIslands } from "./support.ts";

// Chiamaka failed BIO 113 (Introductory Botany, 3 units, compulsory, first semester) in her
// published 2023/2024 first semester (server/results/seed.ts). In 2024/2025, at 200 level, her
// registration carries it over: pre-selected, marked, not removable, registered with her courses
// and marked on the slip and in her registration history (decision 180). Each journey leaves her
// 2024/2025 first semester empty.

const selected = (page: Page) => page.getByRole("table", { name: "Selected courses" });
const registered = (page: Page) => page.getByRole("table", { name: "Registered courses" });

/** Empties her 2024/2025 first semester at every level, whatever a journey left. */
async function clearFirstSemesterOf2024(page: Page) {
  const reset = await page.request.post("/api/courses/reset/", {
    data: {
      registration_session: "2024/2025",
      semester: "first",
      student_id: await myId(page),
    },
  });
  expect([200, 404]).toContain(reset.status());
}

async function myId(page: Page) {
  const me = (await (await page.request.get("/api/student/me")).json()) as { data: { id: number } };
  return me.data.id;
}

async function expectCarryOverSelected(page: Page) {
  const row = selected(page).getByRole("row", { name: /BIO 113/ });
  await expect(row).toContainText("Carry-over");
  await expect(row).toContainText("Introductory Botany");
  await expect(row.getByRole("button", { name: "Remove BIO 113" })).toHaveCount(0);
  await expect(page.getByTestId("carry-over-note")).toContainText(
    "Carry-over: BIO 113 (First Semester).",
  );
}

async function expectRegisteredAndOnTheSlip(page: Page) {
  await page.getByRole("button", { name: "View Registered Courses" }).click();
  await expect(registered(page).getByRole("row", { name: /BIO 113/ })).toContainText("Carry-over");
  await expect(registered(page).getByRole("row", { name: /BIO 211/ })).not.toContainText(
    "Carry-over",
  );
  await expect(registered(page).getByRole("row", { name: /Total Units/ })).toContainText("7");
  // Registered, it is no longer a course to add.
  await expect(page.getByTestId("carry-over-note")).toHaveCount(0);

  await page.goto("/course-reg/print?level=200&session=2024%2F2025");
  const slip = page.getByRole("table", { name: "First Semester Courses" });
  await expect(slip.getByRole("row", { name: /BIO 113/ })).toContainText("Carry-over");
  await expect(slip.getByRole("row", { name: /BIO 211/ })).not.toContainText("Carry-over");

  // Looking back, her registration history labels it too.
  await page.goto("/course-reg/history?session=2024%2F2025");
  await expect(registered(page).getByRole("row", { name: /BIO 113/ })).toContainText("Carry-over");
  await expect(registered(page).getByRole("row", { name: /BIO 211/ })).not.toContainText(
    "Carry-over",
  );
}

test("with JavaScript, her carry-over is pre-selected, cannot be unticked or removed, and is registered and printed as a carry-over", async ({
  page,
}) => {
  await signIn(page, DEMO.returning, "/course-reg");
  await clearFirstSemesterOf2024(page);
  try {
    await page.reload();
    await waitForIslands(page);
    await expect(page.getByLabel("Registration level")).toHaveValue("200");
    await expectCarryOverSelected(page);

    // At 100 level, where BIO 113 is offered, its box is ticked and cannot be unticked.
    await page.getByLabel("Registration level").selectOption("100");
    await page.getByLabel("Semester", { exact: true }).selectOption({ label: "FIRST" });
    await page.getByLabel("Search courses", { exact: true }).fill("BIO 113");
    const box = page.getByRole("checkbox", { name: "Select BIO 113" });
    await expect(box).toBeChecked();
    await expect(box).toBeDisabled();
    await expectCarryOverSelected(page);

    // Back at her own level, she adds BIO 211 (4 units): 7 units with the carry-over.
    await page.getByLabel("Registration level").selectOption("200");
    await page.getByLabel("Search courses", { exact: true }).fill("BIO 211");
    await page.getByRole("checkbox", { name: "Select BIO 211" }).check();
    await expect(selected(page).getByRole("row", { name: /Total Units/ })).toContainText("7");
    await page.getByRole("button", { name: "Register Courses" }).click();
    await expect(page).toHaveURL(/level=200&registered=1$/);
    await waitForIslands(page);
    await expect(page.getByText("Your courses have been registered.")).toBeVisible();
    await expectRegisteredAndOnTheSlip(page);
  } finally {
    await clearFirstSemesterOf2024(page);
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("her carry-over is in the selection whatever the form sends, and is registered with her courses", async ({
    page,
  }) => {
    await signInWithoutJavaScript(page, DEMO.returning, "/course-reg?semester=1");
    await clearFirstSemesterOf2024(page);
    try {
      await page.goto("/course-reg?semester=1");
      await expectCarryOverSelected(page);

      // A forged remove, with a selection that leaves it out, does not take it out.
      const carried = await page.locator('input[name="sel"]').first().getAttribute("value");
      await page.goto(
        `/course-reg?${new URLSearchParams({ semester: "1", level: "200", sel_level: "200", drop: carried!, keyword: "BIO 211" })}`,
      );
      await expectCarryOverSelected(page);

      await page.getByRole("checkbox", { name: "Select BIO 211" }).check();
      await page.getByRole("button", { name: "Add ticked courses" }).click();
      await expect(selected(page).getByRole("row", { name: /Total Units/ })).toContainText("7");
      await page.getByRole("button", { name: "Register Courses" }).click();
      await expect(page).toHaveURL(/level=200&registered=1#answer$/);
      await expect(page.getByText("Your courses have been registered.")).toBeVisible();
      await expectRegisteredAndOnTheSlip(page);
    } finally {
      await clearFirstSemesterOf2024(page);
    }
  });
});
