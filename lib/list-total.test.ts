import { describe, expect, it } from 'vitest';
import { totalFromPage } from './list-total.ts';

describe('totalFromPage', () => {
  it('a short page ends the matches: the total is what lies before it and in it', () => {
    expect(totalFromPage(0, 10, 3)).toBe(3);
    expect(totalFromPage(20, 10, 4)).toBe(24);
    expect(totalFromPage(0, 10, 0)).toBe(0);
  });

  it('a full page, or an empty page past the start, needs a count', () => {
    expect(totalFromPage(0, 10, 10)).toBeNull();
    expect(totalFromPage(30, 10, 10)).toBeNull();
    expect(totalFromPage(50, 10, 0)).toBeNull();
  });
});
