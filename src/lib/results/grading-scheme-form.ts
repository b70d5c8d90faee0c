import type { GradingScheme } from "../../../common/results/grading.ts";
import { SPECIAL_MARKS } from "../../../common/results/grading.ts";

/** Rows the form offers for grades and for classes of certificate; blank rows are left out. */
export const BAND_ROWS = 8;
export const CLASS_ROWS = 6;

/**
 * The grading-scheme form as the API's request: numbers stay as typed (the API says what is
 * wrong with them), and a row whose every box is blank is not a row. Works from a plain form
 * post, so the page needs no JavaScript.
 */
export function schemeFromForm(form: FormData) {
  const text = (name: string) => String(form.get(name) ?? "").trim();
  const rows = <T>(count: number, names: string[], make: (i: number) => T) =>
    Array.from({ length: count }, (_, i) => i)
      .filter((i) => names.some((name) => text(`${name}_${i}`) !== ""))
      .map(make);
  return {
    from_session: text("from_session"),
    scheme: {
      caMax: text("ca_max"),
      examMax: text("exam_max"),
      bands: rows(BAND_ROWS, ["grade", "min", "max", "point"], (i) => ({
        grade: text(`grade_${i}`),
        min: text(`min_${i}`),
        max: text(`max_${i}`),
        point: text(`point_${i}`),
      })),
      passPoint: text("pass_point"),
      special: Object.fromEntries(
        SPECIAL_MARKS.map((mark) => [mark, { countsAsFail: form.get(`fails_${mark}`) === "on" }]),
      ),
      retakes: text("retakes"),
      probationBelowCgpa: text("probation_below"),
      certificateClasses: rows(CLASS_ROWS, ["class", "class_min"], (i) => ({
        name: text(`class_${i}`),
        minCgpa: text(`class_min_${i}`),
      })),
    },
  };
}

/** The form's boxes filled from a scheme (or from what was posted, after a refusal). */
export function formValues(scheme: GradingScheme): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {
    ca_max: String(scheme.caMax),
    exam_max: String(scheme.examMax),
    pass_point: String(scheme.passPoint),
    retakes: scheme.retakes,
    probation_below: String(scheme.probationBelowCgpa),
  };
  scheme.bands.forEach((band, i) => {
    values[`grade_${i}`] = band.grade;
    values[`min_${i}`] = String(band.min);
    values[`max_${i}`] = String(band.max);
    values[`point_${i}`] = String(band.point);
  });
  scheme.certificateClasses.forEach((each, i) => {
    values[`class_${i}`] = each.name;
    values[`class_min_${i}`] = String(each.minCgpa);
  });
  for (const mark of SPECIAL_MARKS) values[`fails_${mark}`] = scheme.special[mark].countsAsFail;
  return values;
}

/** What was posted, as the same boxes, so a refused form comes back as it was typed. */
export function postedValues(form: FormData): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {};
  for (const [name, value] of form.entries()) values[name] = String(value);
  for (const mark of SPECIAL_MARKS) values[`fails_${mark}`] = form.get(`fails_${mark}`) === "on";
  return values;
}
