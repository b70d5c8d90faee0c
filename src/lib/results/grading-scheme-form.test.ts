import { describe, expect, it } from "vitest";
import { NCE_SCHEME } from "../../../common/results/grading.ts";
import { SetGradingSchemeRequest } from "../../../common/results/grading-schemes.ts";
import { formValues, schemeFromForm } from "./grading-scheme-form.ts";

const formOf = (values: Record<string, string | boolean>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) {
    if (value === true) form.set(name, "on");
    else if (value !== false) form.set(name, value);
  }
  return form;
};

describe("the grading-scheme form", () => {
  it("posts back the scheme it was filled from, blank rows left out", () => {
    const form = formOf({ ...formValues(NCE_SCHEME), from_session: "2024/2025", grade_7: " " });
    const request = SetGradingSchemeRequest.parse(schemeFromForm(form));
    expect(request).toEqual({ from_session: "2024/2025", scheme: NCE_SCHEME });
  });

  it("keeps a half-filled row, so the API can say what it lacks", () => {
    const form = formOf({ ...formValues(NCE_SCHEME), grade_6: "P" });
    const result = SetGradingSchemeRequest.safeParse(schemeFromForm(form));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toContain(
      "A band's lowest mark must be a number.",
    );
    expect(schemeFromForm(form).scheme.bands).toHaveLength(7);
  });

  it("reads an unticked special mark as not counting as a failure", () => {
    const values = formValues(NCE_SCHEME);
    values.fails_ABS = false;
    expect(schemeFromForm(formOf(values)).scheme.special.ABS).toEqual({ countsAsFail: false });
  });
});
