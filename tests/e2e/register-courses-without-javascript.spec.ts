import { expect, test, type Page } from "@playwright/test";
import { DEMO, PORTAL_ORIGIN, signInWithoutJavaScript } from "./support.ts";

// The fresher (NCE English/Social Studies, 100 level) in 2024/2025, the open session, on a phone
// whose browser runs no JavaScript: every step is a form the page server answers (decision 092).
// First semester: ENG/SOS 111–114 (4,3,3,3 each), EDU 111–114 (3,3,2,3), GSE 111–113 (2 each) = 43 units.
test.use({ javaScriptEnabled: false });

const courseTable = (page: Page) => page.getByRole("table", { name: "Courses you can register" });
const selectedTotal = (page: Page) =>
  page.getByRole("table", { name: "Selected courses" }).getByRole("row", { name: /Total Units/ });
const registered = (page: Page) => page.getByRole("table", { name: "Registered courses" });

async function resetSemester(page: Page, name: "First" | "Second") {
  await page.getByRole("button", { name: `Reset ${name} Semester` }).click();
  await expect(page).toHaveURL(/\/course-reg\/reset\?/);
  await expect(
    page.getByText(
      `Are you sure you want to reset your ${name} Semester Course Registration for 100, 2024/2025?`,
    ),
  ).toBeVisible();
  await page.getByRole("button", { name: "Yes, reset" }).click();
  await expect(page.getByRole("status")).toHaveText("Reset successful");
}

test("the fresher registers within 80 units, is refused past it, prints the slip and resets, all without JavaScript", async ({
  page,
}) => {
  await signInWithoutJavaScript(page, DEMO.fresher, "/course-reg");
  await expect(page.getByLabel("Registration level")).toHaveValue("100");
  await expect(page.getByLabel("Session", { exact: true })).toHaveValue("2024/2025");
  // No island ran: the page is the server's form.
  await expect(page.locator("astro-island[ssr]")).toHaveCount(1);

  await page.getByRole("button", { name: "View Registered Courses" }).click();
  await expect(page.getByText("No Courses Registered Yet")).toBeVisible();

  await page.getByLabel("Semester", { exact: true }).selectOption({ label: "FIRST" });
  await page.getByRole("button", { name: "Show Courses" }).click();
  await expect(page.getByText("Page 1 of 2")).toBeVisible();

  // The keyword filter is a GET form too.
  await page.getByLabel("Search courses", { exact: true }).fill("phonet");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(courseTable(page).getByRole("row")).toHaveCount(3); // header, ENG 111, footer
  await page.getByLabel("Search courses", { exact: true }).fill("");
  await page.getByRole("button", { name: "Filter" }).click();

  // Ticks on page 1 travel with the Next button; those on page 2 with "Add ticked courses".
  for (const box of await courseTable(page).getByRole("checkbox").all()) await box.check();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  for (const box of await courseTable(page).getByRole("checkbox").all()) await box.check();
  await page.getByRole("button", { name: "Add ticked courses" }).click();
  await expect(selectedTotal(page)).toContainText("43");
  await expect(courseTable(page).getByRole("row", { name: /Total Units Selected/ })).toContainText(
    "43",
  );

  // The course-code search adds second-semester courses, one request per course, up to 80.
  await page.getByLabel("Course code").fill("E");
  await page.getByRole("button", { name: "Search Courses" }).click();
  await expect(page.getByText("Type at least 2 characters.")).toBeVisible();
  for (const code of ["ENG 12", "SOS 12", "EDU 12"]) {
    await page.getByLabel("Course code").fill(code);
    await page.getByRole("button", { name: "Search Courses" }).click();
    for (const slot of [1, 2, 3, 4]) {
      await page.getByRole("button", { name: new RegExp(`^${code}${slot} `) }).click();
    }
  }
  await expect(selectedTotal(page)).toContainText("80");
  await page.getByLabel("Course code").fill("GSE 121");
  await page.getByRole("button", { name: "Search Courses" }).click();
  await page.getByRole("button", { name: /^GSE 121 / }).click();
  await expect(page.getByRole("alert")).toHaveText("Cannot exceed maximum of 80 units!");
  await expect(selectedTotal(page)).toContainText("80");
  await page.getByLabel("Course code").fill("ENG 121");
  await page.getByRole("button", { name: "Search Courses" }).click();
  await page.getByRole("button", { name: /^ENG 121 / }).click();
  await expect(page.getByRole("alert")).toHaveText("Course already selected!");

  // A blank session is the spec's info message, and the selection stays.
  await page.getByLabel("Session", { exact: true }).selectOption("");
  await page.getByRole("button", { name: "Register Courses" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Select a session" })).toBeVisible();
  await expect(selectedTotal(page)).toContainText("80");

  await page.getByLabel("Session", { exact: true }).selectOption("2024/2025");
  await page.getByRole("button", { name: "Register Courses" }).click();
  // The form submits to #answer and the redirect keeps it: the page opens at the message (decision 145).
  await expect(page).toHaveURL(/\/course-reg\?session=2024%2F2025&level=100&registered=1#answer$/);
  await expect(page.getByText("Your courses have been registered.")).toBeVisible();
  await expect(page.getByText("No courses selected yet.")).toBeVisible();

  await page.getByRole("button", { name: "View Registered Courses" }).click();
  await expect(registered(page).locator("tbody tr")).toHaveCount(27);
  await expect(registered(page).getByRole("row", { name: /Total Units/ })).toContainText("80");
  await page.getByRole("link", { name: "Go to Printout" }).click();
  await expect(page).toHaveURL("/course-reg/print?level=100&session=2024%2F2025");
  // The print button needs the script; without it the page names the browser's own Print.
  await expect(page.getByRole("button", { name: "Print file" })).toBeHidden();
  await expect(page.getByText("To print, open your browser's menu and choose Print")).toBeVisible();
  await expect(
    page
      .getByRole("table", { name: "First Semester Courses" })
      .getByRole("row", { name: /Total Units/ }),
  ).toContainText("43");
  await expect(
    page
      .getByRole("table", { name: "Second Semester Courses" })
      .getByRole("row", { name: /Total Units/ }),
  ).toContainText("37");

  // Resetting asks on a page; the table stays open after it. Leave 2024/2025 empty again.
  await page.goto("/course-reg?keep_registered=1");
  await resetSemester(page, "First");
  await expect(registered(page).locator("tbody tr")).toHaveCount(12);
  await resetSemester(page, "Second");
  await expect(page.getByText("No Courses Registered Yet")).toBeVisible();
});

test("the no-JavaScript /course-reg page stays within 30 KiB of HTML and CSS (gzip)", async ({
  page,
}) => {
  await signInWithoutJavaScript(page, DEMO.fresher, "/course-reg?semester=1");
  const html = await page.content();
  const styles = await page.evaluate(async () => {
    const links = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')];
    return (await Promise.all(links.map(async (link) => (await fetch(link.href)).text()))).join("");
  });
  const gzipped = new Blob([html, styles]).stream().pipeThrough(new CompressionStream("gzip"));
  const bytes = (await new Response(gzipped).arrayBuffer()).byteLength;
  console.log(`/course-reg without JavaScript: ${bytes} bytes of HTML+CSS, gzip`);
  expect(bytes).toBeLessThanOrEqual(30 * 1024);
});

test.describe("forged and stale registration posts", () => {
  /** Posts the picker's form as a browser would, from the portal's own origin. */
  const post = (page: Page, path: string, form: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(form))
      for (const one of [value].flat()) body.append(name, one);
    return page.request.post(path, {
      headers: { origin: PORTAL_ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      data: body.toString(),
      maxRedirects: 0,
    });
  };
  const courseIds = async (page: Page, level: number, codes: string[]) => {
    const answer = await (
      await page.request.get(`/api/courses/mapped/read?mapped_level=${level}`)
    ).json();
    const courses = answer.data.data as { course_id: number; code: string }[];
    return codes.map((code) => String(courses.find((course) => course.code === code)!.course_id));
  };
  const registeredCount = async (page: Page, session = "2024/2025") =>
    (
      (
        await (
          await page.request.get(`/api/courses/student-view?session=${encodeURIComponent(session)}`)
        ).json()
      ).data as unknown[]
    ).length;

  test("each is answered on the page and changes nothing", async ({ page }) => {
    await signInWithoutJavaScript(page, DEMO.fresher, "/course-reg");
    const [eng111, sos111] = await courseIds(page, 100, ["ENG 111", "SOS 111"]);
    const [eng211] = await courseIds(page, 200, ["ENG 211"]);
    const form = (level: string, session: string, ids: string[]) => ({
      level,
      session,
      sel_level: level,
      sel: ids,
    });

    // A course not offered at the level asked for.
    let answer = await post(page, "/course-reg", form("100", "2024/2025", [eng111!, eng211!]));
    expect(answer.status()).toBe(400);
    expect(await answer.text()).toContain("ENG 211 is not offered to your programme at 100 level.");
    // A level above the student's own.
    answer = await post(page, "/course-reg", form("200", "2024/2025", [eng211!]));
    expect(answer.status()).toBe(400);
    expect(await answer.text()).toContain(
      "You are in 100 level; you cannot register 200 level courses.",
    );
    // A session whose registration is closed.
    answer = await post(page, "/course-reg", form("100", "2023/2024", [eng111!]));
    expect(answer.status()).toBe(403);
    expect(await answer.text()).toContain("Course registration for 2023/2024 is closed");
    expect(await registeredCount(page)).toBe(0);

    // The same post twice: the second changes nothing and says why.
    answer = await post(page, "/course-reg", form("100", "2024/2025", [eng111!, sos111!]));
    expect(answer.status()).toBe(303);
    expect(answer.headers().location).toBe(
      "/course-reg?session=2024%2F2025&level=100&registered=1",
    );
    answer = await post(page, "/course-reg", form("100", "2024/2025", [eng111!, sos111!]));
    expect(answer.status()).toBe(409);
    expect(await answer.text()).toContain("ENG 111 is already registered for 2024/2025.");
    expect(await registeredCount(page)).toBe(2);

    // A reset in another student's name.
    const me = (await (await page.request.get("/api/student/me")).json()).data.id as number;
    const reset = (studentId: number) =>
      post(page, "/course-reg/reset", {
        semester: "first",
        registration_level: "100",
        registration_session: "2024/2025",
        student_id: String(studentId),
      });
    answer = await reset(me + 1);
    expect(answer.status()).toBe(403);
    expect(await answer.text()).toContain(
      "Reset failed: You can only reset your own course registration.",
    );
    expect(await registeredCount(page)).toBe(2);
    // The student's own reset, then the same post replayed.
    expect((await reset(me)).status()).toBe(303);
    answer = await reset(me);
    expect(answer.status()).toBe(404);
    expect(await answer.text()).toContain(
      "You have no First Semester courses registered for 2024/2025.",
    );
    expect(await registeredCount(page)).toBe(0);
  });
});
