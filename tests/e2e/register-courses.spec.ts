import { expect, test, type Page } from "@playwright/test";
import { DEMO, signIn, waitForIslands } from "./support.ts";

// The fresher (NCE English/Social Studies, 100 level) registers in 2024/2025, the open session.
// First semester: ENG/SOS 111–114 (4,3,3,3 each), EDU 111–114 (3,3,2,3), GSE 111–113 (2 each) = 43 units.

const dialog = (page: Page) => page.getByRole("dialog", { name: "Search Courses" });

async function tickAllOnEveryPage(page: Page) {
  const table = page.getByRole("table", { name: "Courses you can register" });
  // After a level change the courses arrive by fetch: tick nothing before they are there.
  await expect(table.getByRole("checkbox").first()).toBeVisible();
  for (;;) {
    for (const box of await table.getByRole("checkbox").all()) await box.check();
    const next = page.getByRole("button", { name: "Next" });
    if (await next.isDisabled()) break;
    await next.click();
  }
}

/** Like tickAllOnEveryPage, but a tick the page refuses stays unticked: click rather than check(). */
async function tryTickingAllOnEveryPage(page: Page) {
  const table = page.getByRole("table", { name: "Courses you can register" });
  await expect(table.getByRole("checkbox").first()).toBeVisible();
  for (;;) {
    for (const box of await table.getByRole("checkbox").all()) await box.click();
    const next = page.getByRole("button", { name: "Next" });
    if (await next.isDisabled()) break;
    await next.click();
  }
}

/**
 * Empties the signed-in student's first semester of 2024/2025 at every level through the API, so
 * a journey that fails half-way (or its retry) leaves nothing behind for the journeys after it.
 */
async function clearFirstSemesterOf2024(page: Page) {
  const me = (await (await page.request.get("/api/student/me")).json()) as { data: { id: number } };
  const reset = await page.request.post("/api/courses/reset/", {
    data: { registration_session: "2024/2025", semester: "first", student_id: me.data.id },
  });
  expect([200, 404]).toContain(reset.status());
}

async function addFromSearch(page: Page, codes: string[]) {
  for (const code of codes) {
    await dialog(page).getByLabel("Course code").fill(code);
    await dialog(page)
      .getByRole("button", { name: new RegExp(`^${code} `) })
      .click();
  }
}

test("the fresher picks courses within 80 units, registers, resets the first semester, registers again and prints", async ({
  page,
}) => {
  await signIn(page, DEMO.fresher, "/course-reg");
  await waitForIslands(page);
  await expect(page.getByRole("heading", { name: "Registration", exact: true })).toBeVisible();
  await expect(page.getByLabel("Registration level")).toHaveValue("100");
  await expect(page.getByLabel("Session", { exact: true })).toHaveValue("2024/2025");
  await expect(page.getByText(/School fee status \(2024\/2025\):/)).toBeVisible();

  await page.getByRole("button", { name: "View Registered Courses" }).click();
  await expect(page.getByText("No Courses Registered Yet")).toBeVisible();

  await page.getByLabel("Semester", { exact: true }).selectOption({ label: "FIRST" });
  const courses = page.getByRole("table", { name: "Courses you can register" });
  await page.getByLabel("Search courses", { exact: true }).fill("phonet");
  await expect(courses.getByRole("row")).toHaveCount(3); // header, ENG 111, footer
  await expect(courses).toContainText("Introduction to Phonetics");
  await page.getByLabel("Search courses", { exact: true }).fill("");
  await expect(page.getByText("Page 1 of 2")).toBeVisible();
  await tickAllOnEveryPage(page);
  await expect(courses.getByRole("row", { name: /Total Units Selected/ })).toContainText("43");

  // The search modal adds second-semester courses until the next one would pass 80.
  await page.getByRole("button", { name: "Add more Courses" }).click();
  await addFromSearch(page, [
    "ENG 121",
    "ENG 122",
    "ENG 123",
    "ENG 124",
    "SOS 121",
    "SOS 122",
    "SOS 123",
    "SOS 124",
  ]);
  await addFromSearch(page, ["EDU 121", "EDU 122", "EDU 123", "EDU 124"]); // 80 units now
  await addFromSearch(page, ["GSE 121"]);
  await expect(dialog(page).getByRole("alert")).toHaveText("Cannot exceed maximum of 80 units!");
  await addFromSearch(page, ["ENG 121"]);
  await expect(dialog(page).getByRole("alert")).toHaveText("Course already selected!");
  await dialog(page).getByRole("button", { name: "Done" }).click();
  await expect(dialog(page)).toBeHidden();

  // Ticking in the table gives the table's wording.
  await page.getByLabel("Semester", { exact: true }).selectOption({ label: "SECOND" });
  await page.getByLabel("Search courses", { exact: true }).fill("GSE 121");
  // A refused tick stays unticked, so click rather than check().
  await page.getByRole("checkbox", { name: "Select GSE 121" }).click();
  await expect(page.getByRole("alert")).toHaveText("Cannot exceed maximum of 80 units");
  await expect(page.getByRole("checkbox", { name: "Select GSE 121" })).not.toBeChecked();
  const selected = page.getByRole("table", { name: "Selected courses" });
  await expect(selected.getByRole("row", { name: /Total Units/ })).toContainText("80");

  await page.getByLabel("Session", { exact: true }).selectOption("");
  await page.getByRole("button", { name: "Register Courses" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Select a session" })).toBeVisible();
  await page.getByLabel("Session", { exact: true }).selectOption("2024/2025");
  await page.getByRole("button", { name: "Register Courses" }).click();
  await expect(page).toHaveURL(/\/course-reg\?session=2024%2F2025&level=100&registered=1$/);
  await waitForIslands(page);
  await expect(page.getByText("Your courses have been registered.")).toBeVisible();

  await page.getByRole("button", { name: "View Registered Courses" }).click();
  const registered = page.getByRole("table", { name: "Registered courses" });
  await expect(registered.getByRole("row", { name: /Total Units/ })).toContainText("80");
  await expect(registered.locator("tbody tr")).toHaveCount(27);
  // Nothing is approved yet, so no warning about approved courses (decision 145).
  await expect(
    page.getByText(
      "You cannot delete courses after the Course Advisor have approved your course registration.",
    ),
  ).toHaveCount(0);
  await expect(page.getByRole("list", { name: "Course Advisor" })).toContainText(
    "First Semester: Approval pending",
  );

  await page.getByRole("button", { name: "Reset First Semester" }).click();
  const confirm = page.getByRole("dialog", { name: "Reset registration" });
  await expect(confirm).toContainText(
    "Are you sure you want to reset your First Semester Course Registration for 100, 2024/2025?",
  );
  await confirm.getByRole("button", { name: "Yes, reset" }).click();
  await expect(page.getByText("Reset successful")).toBeVisible();
  await expect(registered.locator("tbody tr")).toHaveCount(12);
  await expect(registered.getByRole("row", { name: /Total Units/ })).toContainText("37");

  await page.getByLabel("Semester", { exact: true }).selectOption({ label: "FIRST" });
  for (const code of ["ENG 111", "SOS 111", "EDU 111", "GSE 111"]) {
    await page.getByLabel("Search courses", { exact: true }).fill(code);
    await page.getByRole("checkbox", { name: `Select ${code}` }).check();
  }
  // The page is at ?registered=1 already: wait for the reload itself.
  const reloaded = page.waitForEvent("framenavigated", (frame) => frame === page.mainFrame());
  await page.getByRole("button", { name: "Register Courses" }).click();
  await reloaded;
  await expect(page.getByText("No courses selected yet.")).toBeVisible();

  await page.goto("/");
  await expect(page.getByRole("region", { name: "Course Registration" })).toContainText(
    "Completed",
  );

  await page.goto("/course-reg");
  await waitForIslands(page);
  await page.getByRole("button", { name: "View Registered Courses" }).click();
  await page.getByRole("link", { name: "Go to Printout" }).click();
  await expect(page).toHaveURL("/course-reg/print?level=100&session=2024%2F2025");
  await expect(page).toHaveTitle("Course Reg");
  await expect(page.getByRole("heading", { name: "Course Registration Slip" })).toBeVisible();
  const first = page.getByRole("table", { name: "First Semester Courses" });
  await expect(first.locator("tbody tr")).toHaveCount(4);
  await expect(first.getByRole("row", { name: /Total Units/ })).toContainText("13");
  await expect(first.getByRole("columnheader", { name: "Signing" })).toBeVisible();
  const second = page.getByRole("table", { name: "Second Semester Courses" });
  await expect(second.getByRole("row", { name: /Total Units/ })).toContainText("37");
  // The second semester starts a new printed page.
  expect(
    await second.evaluate((table) => getComputedStyle(table.closest(".page-break")!).breakBefore),
  ).toBe("page");
  const signatures = page.getByRole("table", { name: "Signatures" });
  for (const signer of ["Head of Department", "Dean of Faculty", "Programme Director", "Student"]) {
    await expect(signatures.getByRole("columnheader", { name: signer })).toBeVisible();
  }
  for (const row of ["Name", "Rank", "Signature", "Date"]) {
    await expect(signatures.getByRole("rowheader", { name: row })).toBeVisible();
  }
  await expect(page.getByRole("button", { name: "Print file" })).toBeVisible();
  await expect(page.getByText("To print, open your browser's menu")).toBeHidden();
  await expect(page.getByRole("table", { name: "Student" })).toContainText("Bello Ibrahim Musa");
});

test("carry-over courses count towards the cap on the page as on the server", async ({ page }) => {
  // The 200-level student registers 100-level first-semester courses (43 units) as carry-overs in
  // 2024/2025, then picks 200-level courses: the page must stop at 80 units for the session.
  await signIn(page, DEMO.returning, "/course-reg");
  await clearFirstSemesterOf2024(page);
  try {
    await waitForIslands(page);
    await page.getByLabel("Registration level").selectOption("100");
    await page.getByLabel("Semester", { exact: true }).selectOption({ label: "FIRST" });
    await tickAllOnEveryPage(page);
    await page.getByRole("button", { name: "Register Courses" }).click();
    await expect(page).toHaveURL(/\/course-reg\?session=2024%2F2025&level=100&registered=1$/);
    await waitForIslands(page);

    await page.getByLabel("Registration level").selectOption("200");
    await expect(
      page.getByText("You have 43 units registered at other levels in 2024/2025"),
    ).toBeVisible();
    await page.getByLabel("Semester", { exact: true }).selectOption({ label: "FIRST" });
    await tryTickingAllOnEveryPage(page);
    await expect(page.getByRole("alert")).toHaveText("Cannot exceed maximum of 80 units");
    const selected = page.getByRole("table", { name: "Selected courses" });
    const picked = Number(
      (await selected.getByRole("row", { name: /Total Units/ }).textContent())?.match(/\d+/)?.[0],
    );
    expect(43 + picked).toBeLessThanOrEqual(80);

    // What the page accepted, the server accepts.
    const reloaded = page.waitForURL(/level=200&registered=1$/);
    await page.getByRole("button", { name: "Register Courses" }).click();
    await reloaded;
    await waitForIslands(page);
    await expect(page.getByText("Your courses have been registered.")).toBeVisible();
  } finally {
    // Leave 2024/2025 empty again for the journeys that follow, whatever happened above.
    await clearFirstSemesterOf2024(page);
  }
});

test("a session without registered courses sends the slip back to registration", async ({
  page,
}) => {
  await signIn(page, DEMO.fresher);
  await page.goto("/course-reg/print?level=100&session=2019%2F2020");
  await expect(page).toHaveURL("/course-reg");
});

test("the 200-level student's history shows the approved 2023/2024 registration, whose reset is refused", async ({
  page,
}) => {
  await signIn(page, DEMO.returning, "/course-reg/history");
  const view = page.getByRole("button", { name: "View Registered Courses" });
  await expect(view).toBeDisabled();
  await page.getByLabel("Session", { exact: true }).selectOption("2019/2020");
  await view.click();
  await expect(page.getByRole("alert")).toHaveText("No Registration Available");

  await page.getByLabel("Session", { exact: true }).selectOption("2023/2024");
  await page.getByRole("button", { name: "View Registered Courses" }).click();
  await expect(page).toHaveURL("/course-reg/history?session=2023%2F2024");
  const table = page.getByRole("table", { name: "Registered courses" });
  await expect(table.getByRole("row", { name: /Total Units/ })).toContainText("75");
  const advisor = page.getByRole("list", { name: "Course Advisor" });
  await expect(advisor).toContainText(
    "First Semester: Approved by Dr. Funmilayo Adeyemi on 04/12/2023",
  );
  await expect(advisor).toContainText(
    "Second Semester: Approved by Dr. Funmilayo Adeyemi on 15/04/2024",
  );

  // The session is closed, so the picker offers no reset; asked anyway, the portal refuses.
  await page.goto("/course-reg");
  await waitForIslands(page);
  await page.getByLabel("Registration level").selectOption("100");
  await page.getByLabel("Session", { exact: true }).selectOption("2023/2024");
  await page.getByRole("button", { name: "View Registered Courses" }).click();
  await expect(
    page.getByRole("table", { name: "Registered courses" }).locator("tbody tr"),
  ).toHaveCount(26);
  await expect(page.getByRole("button", { name: /^Reset/ })).toHaveCount(0);
  await expect(
    page.getByText(
      "You cannot delete courses after the Course Advisor have approved your course registration.",
    ),
  ).toBeVisible();
  const refusal = await page.evaluate(async () => {
    const me = JSON.parse(sessionStorage.getItem("user-info") ?? "{}") as { id: number };
    const response = await fetch("/api/courses/reset/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        registration_session: "2023/2024",
        semester: "first",
        student_id: me.id,
      }),
    });
    return { status: response.status, body: await response.json() };
  });
  expect(refusal.status).toBe(403);
  expect(refusal.body.error.message).toBe(
    "You cannot delete courses after the Course Advisor have approved your course registration.",
  );

  await page.goto("/course-reg/history?session=2023%2F2024");
  await page.getByRole("link", { name: "Go to Printout" }).click();
  await expect(page).toHaveURL("/course-reg/print?level=100&session=2023%2F2024");
  await expect(page.getByRole("table", { name: "Student" })).toContainText("2023/2024");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("registration history and the slip are readable", async ({ page }) => {
    await page.goto("/login?next=%2Fcourse-reg%2Fhistory");
    await page.getByLabel("Phone number").fill(DEMO.returning.phone);
    await page.getByLabel("Password", { exact: true }).fill(DEMO.returning.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL("/course-reg/history");
    await page.getByLabel("Session", { exact: true }).selectOption("2023/2024");
    await page.getByRole("button", { name: "View Registered Courses" }).click();
    await expect(page.getByRole("table", { name: "Registered courses" })).toContainText(
      "General Biology I",
    );
    await page.getByRole("link", { name: "Go to Printout" }).click();
    await expect(page.getByRole("table", { name: "First Semester Courses" })).toContainText(
      "BIO 111",
    );
    await expect(page.getByRole("table", { name: "Signatures" })).toBeVisible();
  });
});
