// The total_count of a list answer, known from the page itself when the page is not full: counting the matches reads
// every one of them (an index entry each on MongoDB, a whole document each on FerretDB), so it is skipped when it can be.

/**
 * How many documents match, when a page of `found` documents read with `skip` and `limit` already tells it: a page
 * shorter than the limit holds the last match (unless it is empty past the start, where the matches may end earlier).
 * null when only a count can tell.
 */
export function totalFromPage(skip: number, limit: number, found: number): number | null {
  if (found >= limit) return null;
  if (found === 0 && skip > 0) return null;
  return skip + found;
}
