import { describe, expect, it } from 'vitest';
import { laterThan } from './clock.ts';

describe('laterThan', () => {
  it('is now when now is after the previous time', () => {
    expect(laterThan('2030-01-01T00:00:00.000Z', new Date('2030-01-01T00:00:01.000Z'))).toBe('2030-01-01T00:00:01.000Z');
    expect(laterThan(null, new Date('2030-01-01T00:00:01.000Z'))).toBe('2030-01-01T00:00:01.000Z');
  });
  it('is a millisecond after the previous time when the clock has not moved past it', () => {
    expect(laterThan('2030-01-01T00:00:01.000Z', new Date('2030-01-01T00:00:01.000Z'))).toBe('2030-01-01T00:00:01.001Z');
    expect(laterThan('2030-01-01T00:00:05.000Z', new Date('2030-01-01T00:00:01.000Z'))).toBe('2030-01-01T00:00:05.001Z');
  });
});
