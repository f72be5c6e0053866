// Magic values that force a provider outcome, read from tags in the local part of the customer's email
// ("jane+decline@example.com"). Several tags combine ("jane+slow+decline@..."). See README.md for the table.
export const MAGIC_TAGS = [
  'decline',
  'redirect',
  'review',
  'slow',
  'flaky',
  // The payment's refunds (read from the payment's email): declined, decided later by notification, 500 twice.
  'refund_fail',
  'refund_pending',
  'refund_flaky',
  // The 3DS server's answer (providers/three_ds_server/imitation.ts): a challenge, a decoupled authentication, or trans_status A, N, R, U.
  '3ds_challenge',
  '3ds_decoupled',
  '3ds_attempted',
  '3ds_fail',
  '3ds_reject',
  '3ds_unavailable',
] as const;
export type MagicTag = (typeof MAGIC_TAGS)[number];

export function magicTags(email: string | null | undefined): Set<MagicTag> {
  const local = (email ?? '').split('@')[0] ?? '';
  const tags = local
    .split('+')
    .slice(1)
    .map((t) => t.toLowerCase());
  return new Set(tags.filter((t): t is MagicTag => (MAGIC_TAGS as readonly string[]).includes(t)));
}
