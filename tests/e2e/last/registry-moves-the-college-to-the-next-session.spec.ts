import { expect, test, type Page } from "@playwright/test";
import { expectPageFitsPhone } from "../phone/checks.ts";
import { PHONE_360 } from "../phone/phones.ts";
import { staffSignIn } from "../staff-sign-in.ts";

// Runs after every other journey (the "after-all" project in playwright.config.ts): a session made
// current cannot be left for an older one, and the other journeys rely on 2024/2025 being current.
// Its own students (numbers 122–124 of this journey's range) are the ones held back and corrected.
const HEADER =
  "matric_no,application_no,surname,othername,phone,email,programme,department,level,entry_session,entry_mode,study_mode";
const student = (n: number, othername: string) => ({
  matric: `COE/2024/FEE/${900 + n}`,
  row: [
    `COE/2024/FEE/${900 + n}`,
    `APP/2024/FEE/${900 + n}`,
    "Promo",
    othername,
    `0815900${String(n).padStart(4, "0")}`,
    `promo.${n}@students.example`,
    "NCE Biology/Chemistry",
    "Biology",
    "100",
    "2024/2025",
    "UTME",
    "Full Time",
  ].join(","),
});
const [typed, uploaded, corrected] = [
  student(122, "Garba"),
  student(123, "Halima"),
  student(124, "Ifeoma"),
];

async function levelOf(page: Page, matric: string) {
  await page.goto(`/staff/students?q=${encodeURIComponent(matric)}`);
  await page.getByRole("link", { name: matric }).click();
  return page.getByLabel("Level", { exact: true });
}

test("the registry makes the next session current after a confirmation, holds two students back, promotes, and undoes the promotion without overwriting a hand correction", async ({
  page,
}) => {
  await staffSignIn(page, "registry@college.example");
  await page.goto("/staff/students/import");
  await page.getByLabel("CSV file").setInputFiles({
    name: "three.csv",
    mimeType: "text/csv",
    buffer: Buffer.from([HEADER, typed.row, uploaded.row, corrected.row].join("\n") + "\n"),
  });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status")).toContainText("Imported 3 rows");

  // Only newer sessions are offered; the next one may already exist (the bursar's journey makes it).
  await page.goto("/staff/sessions");
  await expect(page.getByRole("row", { name: /2024\/2025 \(current\)/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Make 2023/2024 current…" })).toHaveCount(0);
  if ((await page.getByRole("row", { name: /^2025\/2026/ }).count()) === 0) {
    await page.getByLabel("Session", { exact: true }).fill("2025/2026");
    await page.getByRole("button", { name: "Create session" }).click();
    await expect(page.getByRole("status")).toContainText("2025/2026 created");
  }
  await page.getByRole("button", { name: "Make 2025/2026 current…" }).click();
  const making = page.getByRole("region", {
    name: "Make 2025/2026 the current session in place of 2024/2025?",
  });
  await expect(making).toContainText(
    "Students' course registration and school-fee payments move to 2025/2026",
  );
  await expect(making).toContainText("2024/2025 cannot be made current again");
  await making.getByRole("button", { name: "Yes, make 2025/2026 current" }).click();
  await expect(page.getByRole("status")).toHaveText(
    /^2025\/2026 is now the current session in place of 2024\/2025\. Students' course registration and school-fee payments move to 2025\/2026/,
  );
  await expect(page.getByRole("row", { name: /2025\/2026 \(current\)/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Make 2024/2025 current…" })).toHaveCount(0);

  // Hold back: an unknown number is refused and nothing moves; then a typed number and a CSV.
  await page
    .getByRole("row", { name: /2025\/2026 \(current\)/ })
    .getByRole("link", { name: "Promotion" })
    .click();
  await page
    .getByLabel(/Matriculation numbers of students who stay/)
    .fill(`${typed.matric}\nCOE/NO/SUCH/9`);
  await page.getByRole("button", { name: "Check and promote…" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "No student has the matriculation number COE/NO/SUCH/9. Correct the list and check again; nobody was held back or promoted.",
  );
  await page.getByLabel(/Matriculation numbers of students who stay/).fill(typed.matric);
  await page.getByLabel(/Or a CSV file/).setInputFiles({
    name: "hold.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`matric_no\n${uploaded.matric}\n`),
  });
  await page.getByRole("button", { name: "Check and promote…" }).click();
  const promoting = page.getByRole("region", { name: "Promote students for 2025/2026?" });
  const held = promoting.getByRole("table", { name: /Held back/ });
  await expect(held).toContainText(typed.matric);
  await expect(held).toContainText(uploaded.matric);
  await expect(promoting).toContainText("2 held back at their level");
  await promoting.getByRole("button", { name: /^Yes, promote \d+ students$/ }).click();
  await expect(page.getByRole("status")).toHaveText(
    /^Promotion for 2025\/2026 done: \d+ students moved up a level, \d+ marked as graduating, 2 held back at their level\.$/,
  );
  await expect(await levelOf(page, typed.matric)).toHaveValue("100");
  const level = await levelOf(page, corrected.matric);
  await expect(level).toHaveValue("200");

  // A correction by hand after the promotion: the undo must keep it.
  await level.selectOption("300");
  await page.getByRole("button", { name: "Save the record" }).click();
  await expect(page.getByRole("status")).toBeVisible();

  await page.goto("/staff/sessions");
  await page
    .getByRole("row", { name: /2025\/2026 \(current\)/ })
    .getByRole("link", { name: "Promotion" })
    .click();
  await page.getByRole("button", { name: "Undo this promotion…" }).click();
  const undoing = page.getByRole("region", { name: "Undo the promotion for 2025/2026?" });
  const kept = undoing.getByRole("table", { name: /Changed by hand since the promotion/ });
  await expect(kept.getByRole("row", { name: new RegExp(corrected.matric) })).toContainText(
    "200 level300 level",
  );
  // The staff sweep checks every other confirmation on a phone; only here is there a promotion to
  // undo (every-staff-confirmation-fits-a-phone.spec.ts).
  await test.step("the undo's confirmation fits a 360 px phone", async () => {
    const desktop = page.viewportSize()!;
    await page.setViewportSize(PHONE_360.viewport);
    await expectPageFitsPhone(page, { soft: true });
    await page.setViewportSize(desktop);
  });
  await undoing.getByRole("button", { name: "Yes, undo the promotion" }).click();
  await expect(page.getByRole("status")).toHaveText(
    new RegExp(
      `^Promotion for 2025/2026 undone: \\d+ students are back at the level they had before\\. 1 student was changed after the promotion and kept as they are: Promo Ifeoma \\(COE/2024/FEE/1024, now 300 level\\)\\. You can promote again\\.$`,
    ),
  );
  await expect(page.getByRole("button", { name: "Check and promote…" })).toBeVisible();
  await expect(await levelOf(page, corrected.matric)).toHaveValue("300");
  await expect(await levelOf(page, typed.matric)).toHaveValue("100");
  await expect(await levelOf(page, uploaded.matric)).toHaveValue("100");
});
