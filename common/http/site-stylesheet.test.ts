import { describe, expect, it } from "vitest";
import { siteCssCookie, siteCssVersionHeld } from "./site-stylesheet.ts";

describe("the site stylesheet's cookie (decision 203)", () => {
  it("is read among the others, by its exact name", () => {
    expect(siteCssVersionHeld("portal_session=abc; site_css=0123456789ab; x=1")).toBe(
      "0123456789ab",
    );
    expect(siteCssVersionHeld("site_css=0123456789ab")).toBe("0123456789ab");
    expect(siteCssVersionHeld("my_site_css=0123456789ab")).toBeNull();
    expect(siteCssVersionHeld("site_css=")).toBeNull();
    expect(siteCssVersionHeld(null)).toBeNull();
  });

  it("is set for a month, to the whole site, out of scripts' reach, Secure over https", () => {
    expect(siteCssCookie("0123456789ab", false)).toBe(
      "site_css=0123456789ab; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax",
    );
    expect(siteCssCookie("0123456789ab", true)).toBe(
      "site_css=0123456789ab; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax; Secure",
    );
  });
});
