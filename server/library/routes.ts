import { Hono } from "hono";
import { asc, eq } from "drizzle-orm";
import type { ApiDeps } from "../deps.ts";
import type { ApiEnv } from "../http/context.ts";
import { requireStudent } from "../auth/require-student.ts";
import { libraryItems } from "../db/schema.ts";
import type { LibraryList } from "../../common/library/library-item.ts";

export function libraryRoutes(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();

  app.get("/library/", requireStudent(deps), async (c) => {
    const rows = await deps.db
      .select({ id: libraryItems.id, description: libraryItems.description, url: libraryItems.url })
      .from(libraryItems)
      .where(eq(libraryItems.hidden, false))
      .orderBy(asc(libraryItems.id));
    const body: LibraryList = { results: rows };
    return c.json(body);
  });

  return app;
}
