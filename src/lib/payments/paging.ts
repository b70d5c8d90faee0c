/** Rows per page the payments table offers (spec section 9); the first is the default. */
export const PAGE_SIZES = [5, 10, 25, 50] as const;

export type Page<T> = {
  rows: T[];
  /** 1-based, clamped to the pages that exist. */
  page: number;
  size: number;
  pageCount: number;
  total: number;
};

/** One page of `rows` from untrusted query values (?page=&size=): anything odd means the defaults. */
export function pageOf<T>(rows: readonly T[], page: string | null, size: string | null): Page<T> {
  const chosenSize = PAGE_SIZES.find((allowed) => String(allowed) === size) ?? PAGE_SIZES[0];
  const pageCount = Math.max(1, Math.ceil(rows.length / chosenSize));
  const asked = /^\d{1,6}$/.test(page ?? "") ? Number(page) : 1;
  const current = Math.min(Math.max(asked, 1), pageCount);
  const start = (current - 1) * chosenSize;
  return {
    rows: rows.slice(start, start + chosenSize),
    page: current,
    size: chosenSize,
    pageCount,
    total: rows.length,
  };
}
