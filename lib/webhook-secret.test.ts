import { describe, expect, it } from 'vitest';
import { acceptedSecrets, newWebhookSecret, replacedSecret } from './webhook-secret.ts';

describe("connector accounts' notification secrets", () => {
  it('a new secret is 32 random bytes, never the same twice', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('a replaced secret stays accepted for the grace period, then only the new one', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const d = replacedSecret({ merchant_secret: 'old' }, 'new', 60_000, now);
    expect(d).toEqual({ merchant_secret: 'new', previous_secret: 'old', previous_valid_until: '2026-01-01T00:01:00.000Z' });
    expect(acceptedSecrets(d, new Date('2026-01-01T00:00:59Z'))).toEqual(['new', 'old']);
    expect(acceptedSecrets(d, new Date('2026-01-01T00:01:00Z'))).toEqual(['new']);
    // No grace, the same secret again, or nothing before: just the new one.
    expect(replacedSecret({ merchant_secret: 'old' }, 'new', 0, now)).toEqual({ merchant_secret: 'new' });
    expect(replacedSecret({ merchant_secret: 'same' }, 'same', 60_000, now)).toEqual({ merchant_secret: 'same' });
    expect(replacedSecret(null, 'new', 60_000, now)).toEqual({ merchant_secret: 'new' });
    expect(acceptedSecrets(null)).toEqual([]);
  });
});
