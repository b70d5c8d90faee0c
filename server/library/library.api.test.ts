import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { libraryItems } from "../db/schema.ts";
import { DEMO_LIBRARY, insertLibraryItems, seedLibrary } from "./library-items.ts";

let api: ApiHarness;
let token: string;

beforeAll(async () => {
  api = await createApiHarness();
  const student = await api.createStudent();
  token = await api.signIn(student.phone);
});
afterAll(() => api.close());

const itemCount = async () => (await api.db.select({ n: count() }).from(libraryItems))[0]!.n;

describe("GET /library/", () => {
  it("answers an empty list before anything is added", async () => {
    const response = await api.request("/library/", { token });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ results: [] });
  });

  it("lists the seeded items as results of id, description and url, in order", async () => {
    expect(await seedLibrary(api.db)).toHaveLength(12);
    expect(await seedLibrary(api.db)).toEqual([]);
    const body = await (await api.request("/library/", { token })).json();
    expect(body.results).toHaveLength(12);
    expect(body.results.map((item: { description: string }) => item.description)).toEqual(
      DEMO_LIBRARY.map((item) => item.description),
    );
    for (const item of body.results) {
      expect(Object.keys(item).sort()).toEqual(["description", "id", "url"]);
      expect(item.url).toMatch(/^https:\/\//);
    }
  });

  it("is for signed-in students only", async () => {
    expect((await api.request("/library/")).status).toBe(401);
  });
});

describe("only http(s) addresses reach the library", () => {
  it.each([
    ["javascript:alert(document.cookie)"],
    ["JavaScript:alert(1)"],
    [" javascript:alert(1)"],
    ["data:text/html,<script>alert(1)</script>"],
    ["vbscript:msgbox(1)"],
    ["ftp://files.example.org/book.pdf"],
    ["//evil.example/book"],
    ["HTTPS://OPENSTAX.ORG/"],
    ["https://"],
  ])("insertLibraryItems refuses %s and stores nothing", async (url) => {
    const before = await itemCount();
    await expect(insertLibraryItems(api.db, [{ description: "Bad item", url }])).rejects.toThrow(
      "A library item needs an http(s) address.",
    );
    expect(await itemCount()).toBe(before);
  });

  it("the database itself refuses a javascript: address that skips the checks", async () => {
    const before = await itemCount();
    const refusal = await api.db
      .insert(libraryItems)
      .values({ description: "Bad item", url: "javascript:alert(1)" })
      .catch((error: Error) => error);
    expect(String((refusal as Error).cause)).toContain("library_items_url_is_http");
    expect(await itemCount()).toBe(before);
    const body = await (await api.request("/library/", { token })).json();
    expect(JSON.stringify(body)).not.toMatch(/javascript:/i);
  });
});
