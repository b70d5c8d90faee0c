import { describe, expect, it } from "vitest";
import { readLockForm, readStudentForm } from "./student-form.ts";

const formOf = (entries: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(entries)) form.set(name, value);
  return form;
};

describe("the registry's record form", () => {
  it("sends every field, numbers as numbers", () => {
    const values = readStudentForm(
      formOf({
        matric_no: "COE/1",
        surname: "Okafor",
        level: "200",
        programme_id: "3",
        department_id: "",
      }),
    );
    expect(values).toMatchObject({
      matric_no: "COE/1",
      surname: "Okafor",
      othername: "",
      level: 200,
      programme_id: 3,
      department_id: 0,
    });
  });

  it.each([
    [
      { action: "lock", reason: "Checked at screening" },
      { locked: true, reason: "Checked at screening" },
    ],
    [{ action: "unlock", reason: "ignored" }, { locked: false }],
  ])("reads the lock form %j", (entries, request) => {
    expect(readLockForm(formOf(entries))).toEqual(request);
  });
});
