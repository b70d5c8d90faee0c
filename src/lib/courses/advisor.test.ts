import { describe, expect, it } from "vitest";
import { advisorLines } from "./advisor.ts";

const approval = (semester: 1 | 2, approved_at: string) => ({
  semester,
  approved_by: "Dr. Funmilayo Adeyemi",
  approved_at,
});

describe("advisorLines", () => {
  it.each([
    ["nothing registered", [], [], []],
    ["first semester pending", [1, 1], [], ["First Semester: Approval pending"]],
    [
      "both approved (dates in Lagos time)",
      [2, 1],
      [approval(1, "2023-12-04T10:00:00Z"), approval(2, "2024-04-14T23:30:00Z")],
      [
        "First Semester: Approved by Dr. Funmilayo Adeyemi on 04/12/2023",
        "Second Semester: Approved by Dr. Funmilayo Adeyemi on 15/04/2024",
      ],
    ],
    [
      "first approved, second pending",
      [1, 2],
      [approval(1, "2024-11-20T09:00:00Z")],
      [
        "First Semester: Approved by Dr. Funmilayo Adeyemi on 20/11/2024",
        "Second Semester: Approval pending",
      ],
    ],
    [
      "first returned with the adviser's note, second approved",
      [1, 2],
      [approval(2, "2024-11-20T09:00:00Z")],
      [
        "First Semester: Returned by Dr. Musa Abdullahi on 21/11/2024: Add BIO 112.",
        "Second Semester: Approved by Dr. Funmilayo Adeyemi on 20/11/2024",
      ],
    ],
    [
      "an approval for a semester with no courses is not shown",
      [2],
      [approval(1, "2024-11-20T09:00:00Z")],
      ["Second Semester: Approval pending"],
    ],
  ] as const)("%s", (_case, semesters, approvals, lines) => {
    const returns = [
      {
        semester: 1,
        returned_by: "Dr. Musa Abdullahi",
        returned_at: "2024-11-21T08:00:00Z",
        note: "Add BIO 112.",
      },
    ] as const;
    const returnedFirst = lines.some((line) => line.startsWith("First Semester: Returned"));
    expect(
      advisorLines(semesters, approvals, returnedFirst ? returns : []).map((line) => line.text),
    ).toEqual(lines);
  });
});
