import { describe, expect, it } from "vitest";
import { biodataFormToSend, typedBiodata } from "./biodata-page-form.ts";

const stored = { country_origin: "Nigeria", state_origin: "Lagos", lga_origin: "Ikeja" };
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe("biodataFormToSend", () => {
  it("blanks the stored state and LGA when another country is chosen, as the island does", () => {
    const sent = biodataFormToSend(
      form({
        country_origin: "Ghana",
        state_origin: "Lagos",
        lga_origin: "Ikeja",
        email: "a@b.ng",
      }),
      stored,
    );
    expect(Object.fromEntries(sent)).toEqual({
      country_origin: "Ghana",
      state_origin: "",
      lga_origin: "",
      email: "a@b.ng",
    });
  });
  it("keeps a state and LGA the student changed, and everything when the country stays", () => {
    const changed = form({
      country_origin: "Ghana",
      state_origin: "Ashanti",
      lga_origin: "Kumasi",
    });
    expect(Object.fromEntries(biodataFormToSend(changed, stored))).toEqual(
      Object.fromEntries(changed),
    );
    const same = form({ country_origin: "Nigeria", state_origin: "Lagos", lga_origin: "Ikeja" });
    expect(Object.fromEntries(biodataFormToSend(same, stored))).toEqual(Object.fromEntries(same));
  });
  it("passes the photo on untouched", () => {
    const posted = form({ email: "a@b.ng" });
    const photo = new File([new Uint8Array([1, 2, 3])], "me.jpg", { type: "image/jpeg" });
    posted.set("photo", photo);
    expect(biodataFormToSend(posted, stored).get("photo")).toBe(photo);
  });
});

describe("typedBiodata", () => {
  it("keeps what was typed, never the password", () => {
    expect(
      typedBiodata(form({ email: "x", current_password: "secret", religion: "Islam" })),
    ).toEqual({ email: "x", religion: "Islam" });
  });
});
