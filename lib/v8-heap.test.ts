import { describe, expect, it } from 'vitest';
import { heapGrowingFlag } from './v8-heap.ts';

describe('V8_HEAP_GROWING_PERCENT', () => {
  it('becomes the V8 flag', () => {
    expect(heapGrowingFlag({ V8_HEAP_GROWING_PERCENT: '50' })).toBe('--heap-growing-percent=50');
  });
  it('unset, empty or 0 leaves V8 its own factor', () => {
    expect(heapGrowingFlag({})).toBeNull();
    expect(heapGrowingFlag({ V8_HEAP_GROWING_PERCENT: '' })).toBeNull();
    expect(heapGrowingFlag({ V8_HEAP_GROWING_PERCENT: '0' })).toBeNull();
  });
  it('refuses what is not a sane percentage, naming the variable', () => {
    for (const bad of ['abc', '5', '1000', '50.5', '-20']) expect(() => heapGrowingFlag({ V8_HEAP_GROWING_PERCENT: bad })).toThrow(/V8_HEAP_GROWING_PERCENT/);
  });
});
