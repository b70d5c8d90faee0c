import { z } from "zod";

/** What PATCH /student/biodata-update/{id} answers on success, as the page server needs it. */
export const BiodataAnswer = z.object({ message: z.string(), contact_change_pending: z.boolean() });

/** Where the page form lands after saving (POST-redirect-GET), and what it then says. */
export const BIODATA_SAVED: Record<string, string> = {
  "1": "Update successful",
  link: "Your other details are saved. To change your phone number or e-mail, open the link we e-mailed you within 60 minutes, while signed in.",
};

type StoredOrigin = {
  country_origin: string | null;
  state_origin: string | null;
  lga_origin: string | null;
};

/**
 * The Update Biodata form as posted without JavaScript (decision 093), made to say what the
 * island's form says: there, choosing another country empties the state and LGA; here the
 * selects still hold the stored ones, which belong to the old country. They are sent blank.
 */
export function biodataFormToSend(posted: FormData, stored: StoredOrigin): FormData {
  const form = new FormData();
  for (const [name, value] of posted) form.append(name, value);
  const sent = (name: keyof StoredOrigin) => String(posted.get(name) ?? "");
  const country = sent("country_origin");
  const unchangedPlace =
    sent("state_origin") === (stored.state_origin ?? "") &&
    sent("lga_origin") === (stored.lga_origin ?? "");
  if (country && country !== (stored.country_origin ?? "") && unchangedPlace) {
    form.set("state_origin", "");
    form.set("lga_origin", "");
  }
  return form;
}

/** What the student typed, to show again after a refusal (never the password or the photo). */
export function typedBiodata(posted: FormData) {
  const typed: Record<string, string> = {};
  for (const name of [
    "email",
    "phone",
    "marital_status",
    "religion",
    "dob",
    "mob",
    "yob",
    "country_origin",
    "state_origin",
    "lga_origin",
  ]) {
    const value = posted.get(name);
    if (typeof value === "string") typed[name] = value.slice(0, 200);
  }
  return typed;
}
