// Offset pagination reads and skips every entry before the page; past this many, a cursor or a narrower filter is
// the way on (GET /payments/list pages by cursor with no limit).
export const MAX_LIST_OFFSET = 10_000;

type Path = readonly (string | number)[];
const at = (v: unknown, path: Path): unknown =>
  path.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string | number, unknown>)[k] : undefined), v);
const order = (a: unknown): number => (typeof a === 'number' ? a : Date.parse(String(a)));

/**
 * A list filter's ranges must not be inverted: for each [from, to] pair given both, from ≤ to (amounts, or
 * timestamps). An inverted one is an issue at `to`, which the API answers 400 naming it.
 */
export function rangesInOrder(pairs: readonly (readonly [Path, Path])[]) {
  return (v: unknown, ctx: { addIssue(issue: { code: 'custom'; path: (string | number)[]; message: string }): void }) => {
    for (const [from, to] of pairs) {
      const a = at(v, from);
      const b = at(v, to);
      if (a != null && b != null && order(a) > order(b)) {
        ctx.addIssue({ code: 'custom', path: [...to], message: `${to.join('.')} must not be before ${from.join('.')} (the range is inverted)` });
      }
    }
  };
}
