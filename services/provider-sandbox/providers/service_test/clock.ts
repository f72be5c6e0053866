/**
 * The provider's updated_at for a change: now, but always after the previous one, so two changes in one millisecond
 * still order (the merchant drops a notification older than what it holds).
 */
export function laterThan(previous: string | null | undefined, now = new Date()): string {
  const prev = previous ? Date.parse(previous) : NaN;
  return new Date(Number.isNaN(prev) ? now.getTime() : Math.max(now.getTime(), prev + 1)).toISOString();
}
