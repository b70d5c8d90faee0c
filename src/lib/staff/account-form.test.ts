import { describe, expect, it } from "vitest";
import { readAccountForm } from "./account-form.ts";

const form = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [key, value] of entries) data.append(key, value);
  return data;
};

describe("the staff account form", () => {
  it("gives an adviser every chosen level in every chosen department", () => {
    const read = readAccountForm(
      form([
        ["name", "Dr. Ade"],
        ["email", "ade@college.test"],
        ["roles", "adviser"],
        ["departments", "3"],
        ["departments", "5"],
        ["levels", "100"],
        ["levels", "200"],
      ]),
    );
    expect(read.advises).toEqual([
      { department_id: 3, level: 100 },
      { department_id: 3, level: 200 },
      { department_id: 5, level: 100 },
      { department_id: 5, level: 200 },
    ]);
  });

  it("drops unknown roles and levels, and departments for someone who is not an adviser", () => {
    const read = readAccountForm(
      form([
        ["roles", "registry"],
        ["roles", "dean"],
        ["departments", "3"],
        ["levels", "700"],
      ]),
    );
    expect(read.roles).toEqual(["registry"]);
    expect(read.advises).toEqual([]);
  });
});
