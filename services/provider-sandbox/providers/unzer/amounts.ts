// Unzer's amounts: decimals in major units, answered with 4 decimals ("119.0000"). Kept here as integers of 1/10000,
// so sums and comparisons are exact.
export const SCALE = 10_000;

/** "119.5" or 119.5 -> 1195000; null for anything else (negative, more than 4 decimals, not a number). */
export function units(v: unknown): number | null {
  const s = typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' ? v.trim() : null;
  if (s === null) return null;
  const m = /^(\d+)(?:\.(\d{1,4}))?$/.exec(s);
  if (!m) return null;
  const n = Number(m[1]) * SCALE + Number((m[2] ?? '').padEnd(4, '0'));
  return Number.isSafeInteger(n) ? n : null;
}

/** 1195000 -> "119.5000". */
export const show = (n: number) => `${Math.trunc(n / SCALE)}.${String(n % SCALE).padStart(4, '0')}`;
