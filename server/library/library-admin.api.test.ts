import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, libraryItems } from "../db/schema.ts";
import { createApiHarness, type ApiHarness } from "../testing/api-harness.test-kit.ts";
import { createStaff, staffSignIn } from "../staff/staff.test-kit.ts";

let api: ApiHarness;
let adminToken: string;
let studentToken: string;

beforeAll(async () => {
  api = await createApiHarness();
  adminToken = await staffSignIn(api, await createStaff(api, { roles: ["admin"], totp: true }));
  studentToken = await api.signIn((await api.createStudent()).phone);
});
afterAll(() => api.close());

const asAdmin = (path: string, init: { method?: string; json?: unknown } = {}) =>
  api.request(path, { ...init, token: adminToken });
const studentsSee = async () =>
  (
    (await (await api.request("/library/", { token: studentToken })).json()).results as {
      description: string;
      url: string;
    }[]
  ).map((item) => item.description);
const writes = async () => ({
  rows: await api.db.select().from(libraryItems).orderBy(libraryItems.id),
  audits: (await api.db.select({ n: count() }).from(auditLog))[0]!.n,
});
const add = async (description: string, url: string) => {
  const response = await asAdmin("/staff/library", { method: "POST", json: { description, url } });
  expect(response.status).toBe(201);
  return (await response.json()).data.id as number;
};

describe("the administrator keeps the library", () => {
  it("adds an item students see at once, with an audit row", async () => {
    const id = await add(
      "  Physics: an open textbook  ",
      " https://openstax.org/subjects/science ",
    );
    expect(await studentsSee()).toEqual(["Physics: an open textbook"]);
    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "library.create"));
    expect(entry).toMatchObject({
      entity: "library_item",
      entityId: String(id),
      after: {
        description: "Physics: an open textbook",
        url: "https://openstax.org/subjects/science",
      },
    });
  });

  it("edits description and address, hides an item from students and shows it again", async () => {
    const id = await add("Chemistry notes", "http://example.org/chem");
    const edited = await asAdmin(`/staff/library/${id}`, {
      method: "PATCH",
      json: { description: "Chemistry notes (NCE I)", url: "https://example.org/chem" },
    });
    expect(edited.status).toBe(200);
    expect(
      (await asAdmin(`/staff/library/${id}`, { method: "PATCH", json: { hidden: true } })).status,
    ).toBe(200);
    expect(await studentsSee()).not.toContain("Chemistry notes (NCE I)");
    const list = (await (await asAdmin("/staff/library")).json()).data as {
      id: number;
      hidden: boolean;
    }[];
    expect(list.find((item) => item.id === id)).toMatchObject({ hidden: true });
    expect(
      (await asAdmin(`/staff/library/${id}`, { method: "PATCH", json: { hidden: false } })).status,
    ).toBe(200);
    expect(await studentsSee()).toContain("Chemistry notes (NCE I)");
    const audits = await api.db
      .select({ before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(eq(auditLog.action, "library.update"));
    expect(audits).toEqual([
      {
        before: { description: "Chemistry notes", url: "http://example.org/chem" },
        after: { description: "Chemistry notes (NCE I)", url: "https://example.org/chem" },
      },
      { before: { hidden: false }, after: { hidden: true } },
      { before: { hidden: true }, after: { hidden: false } },
    ]);
  });
});

describe("only http(s) addresses, checked on the server", () => {
  it.each([
    ["javascript:alert(document.cookie)"],
    [" JavaScript:alert(1)"],
    ["data:text/html,<script>alert(1)</script>"],
    ["ftp://files.example.org/book.pdf"],
    ["//evil.example/book"],
    ["https://"],
    ["not a url"],
  ])("refuses %s when adding or editing, and changes nothing", async (url) => {
    const [target] = await api.db.select({ id: libraryItems.id }).from(libraryItems).limit(1);
    const before = await writes();
    for (const [path, method] of [
      ["/staff/library", "POST"],
      [`/staff/library/${target!.id}`, "PATCH"],
    ] as const) {
      const response = await asAdmin(path, { method, json: { description: "Bad item", url } });
      expect(response.status).toBe(400);
      expect((await response.json()).error.message).toBe(
        "A library item needs an http(s) address.",
      );
    }
    expect(await writes()).toEqual(before);
  });

  it.each([
    ["no description", "POST", { url: "https://example.org" }, "Enter a description of the item."],
    [
      "a blank description",
      "POST",
      { description: "  ", url: "https://example.org" },
      "Enter a description of the item.",
    ],
    [
      "a 201-character description",
      "POST",
      { description: "d".repeat(201), url: "https://example.org" },
      "Keep the description to 200 characters or fewer.",
    ],
    [
      "an address of 2001 characters",
      "POST",
      { description: "x", url: `https://example.org/${"p".repeat(1982)}` },
      "That address is too long (2000 characters at most).",
    ],
    ["an empty change", "PATCH", {}, "Nothing to change."],
    [
      "hidden that is not true or false",
      "PATCH",
      { hidden: "yes" },
      "Say whether the item is hidden (true) or shown (false).",
    ],
  ])("refuses %s with a 400 and changes nothing", async (_case, method, json, message) => {
    const [target] = await api.db.select({ id: libraryItems.id }).from(libraryItems).limit(1);
    const before = await writes();
    const response = await asAdmin(
      method === "POST" ? "/staff/library" : `/staff/library/${target!.id}`,
      { method, json },
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(message);
    expect(await writes()).toEqual(before);
  });

  it("answers 404 for an item that does not exist and 400 for an id that cannot", async () => {
    expect(
      (await asAdmin("/staff/library/99999", { method: "PATCH", json: { hidden: true } })).status,
    ).toBe(404);
    expect(
      (await asAdmin("/staff/library/0", { method: "PATCH", json: { hidden: true } })).status,
    ).toBe(400);
  });
});
