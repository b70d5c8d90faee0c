import { count } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../db/client.ts";
import { libraryItems } from "../db/schema.ts";
import { LibraryItem } from "../../common/library/library-item.ts";

const NewLibraryItem = LibraryItem.omit({ id: true });
export type NewLibraryItem = z.infer<typeof NewLibraryItem>;

/**
 * Adds items to the library. Each address is checked to be http(s) before it reaches the
 * database, whose CHECK constraint refuses anything else as a second line.
 */
export async function insertLibraryItems(db: Database, items: NewLibraryItem[]) {
  const checked = z.array(NewLibraryItem).parse(items);
  return db.insert(libraryItems).values(checked).returning();
}

/** Open textbooks, NCE curriculum documents and education journals for the demo library. */
export const DEMO_LIBRARY: NewLibraryItem[] = [
  {
    description: "NCE Minimum Standards for Colleges of Education (NCCE)",
    url: "https://www.ncce.gov.ng/",
  },
  {
    description: "Basic Education Curriculum: subject curricula for primary and JSS (NERDC)",
    url: "https://nerdc.gov.ng/",
  },
  {
    description: "Teacher Education in Sub-Saharan Africa (TESSA) open resources",
    url: "https://www.open.edu/openlearncreate/",
  },
  {
    description: "Biology 2e: an open textbook (OpenStax)",
    url: "https://openstax.org/details/books/biology-2e",
  },
  {
    description: "Chemistry 2e: an open textbook (OpenStax)",
    url: "https://openstax.org/details/books/chemistry-2e",
  },
  {
    description: "Psychology 2e: an open textbook (OpenStax)",
    url: "https://openstax.org/details/books/psychology-2e",
  },
  {
    description: "Introduction to Sociology 3e: an open textbook (OpenStax)",
    url: "https://openstax.org/details/books/introduction-sociology-3e",
  },
  {
    description: "Open Textbook Library: peer-reviewed open textbooks",
    url: "https://open.umn.edu/opentextbooks/",
  },
  {
    description: "Education and Professional Development bookshelf (LibreTexts)",
    url: "https://socialsci.libretexts.org/Bookshelves/Education_and_Professional_Development",
  },
  {
    description: "African Journals OnLine: education journals from African publishers",
    url: "https://www.ajol.info/",
  },
  {
    description: "ERIC: Education Resources Information Center, research articles and reports",
    url: "https://eric.ed.gov/",
  },
  {
    description: "Directory of Open Access Journals: peer-reviewed journals in education",
    url: "https://doaj.org/",
  },
];

/** Fills an empty library with the demo items; does nothing when it already has items. */
export async function seedLibrary(db: Database) {
  const [existing] = await db.select({ items: count() }).from(libraryItems);
  if ((existing?.items ?? 0) > 0) return [];
  return insertLibraryItems(db, DEMO_LIBRARY);
}
