// The range filters that POST /payments/list and POST /refunds/list share (spec 4.8's amount_filter and
// start_time/end_time), as MongoDB conditions; undefined where the body sets none.
type AmountFilter = { start_amount?: number | null; end_amount?: number | null } | null | undefined;

export function amountRange(f: AmountFilter): Record<string, number> | undefined {
  const amount: Record<string, number> = {};
  if (f?.start_amount != null) amount.$gte = f.start_amount;
  if (f?.end_amount != null) amount.$lte = f.end_amount;
  return Object.keys(amount).length ? amount : undefined;
}

/** start_time is needed to filter by time; end_time defaults to now. */
export function timeRange(start: string | null | undefined, end: string | null | undefined): Record<string, string> | undefined {
  if (!start && !end) return undefined;
  return { ...(start ? { $gte: new Date(start).toISOString() } : {}), $lte: new Date(end ?? Date.now()).toISOString() };
}
