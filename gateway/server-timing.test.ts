import { describe, expect, it } from 'vitest';
import { parseServerTiming } from '../bench/measure.ts';
import { formatMetric, SERVER_TIMING_METRICS, ServerTiming } from './server-timing.ts';

/** The header's metrics by name (ms), read as the bench reads them. */
const parse = (header: string) => new Map(Object.entries(parseServerTiming(header)));

describe('Server-Timing header', () => {
  it('formats a metric as name;dur=ms;desc="..." with at most one decimal', () => {
    expect(formatMetric('total', 12.345, 'whole handling')).toBe('total;dur=12.3;desc="whole handling"');
    expect(formatMetric('provider', 4)).toBe('provider;dur=4');
    expect(formatMetric('queue', -0.2)).toBe('queue;dur=0');
  });

  it('descriptions hold no comma, which separates metrics for simple readers (the bench)', () => {
    for (const desc of Object.values(SERVER_TIMING_METRICS)) expect(desc).not.toContain(',');
  });

  it('drops what would break the quoted description', () => {
    expect(formatMetric('x', 1, 'say "hi" \\ there')).toBe('x;dur=1;desc="say hi  there"');
  });

  it('a storage-only answer carries total (and store when measured), no overhead', () => {
    const t = new ServerTiming(1_000);
    expect([...parse(t.header(1_020.04)).keys()]).toEqual(['total']);
    t.add('store', 3);
    const h = parse(t.header(1_020));
    expect([...h.keys()]).toEqual(['total', 'store']);
    expect(h.get('total')).toBe(20);
  });

  it('an operation carries total, payment-state, queue, provider and overhead = total - provider', () => {
    const t = new ServerTiming(0);
    t.add('payment-state', 5);
    t.addReported({ provider_ms: 40, queue_ms: 2 });
    // An automatic capture after the authorization: its provider time adds up.
    t.addReported({ provider_ms: 10 });
    const h = parse(t.header(100));
    expect([...h.keys()]).toEqual(['total', 'payment-state', 'queue', 'provider', 'overhead']);
    expect(h.get('provider')).toBe(50);
    expect(h.get('overhead')).toBe(50);
    expect(h.get('payment-state')).toBe(5);
    expect(h.get('queue')).toBe(2);
    expect(t.header(100)).toContain('provider;dur=50;desc="');
  });

  it('an operation without a connector call (or a report without timing) has overhead = total', () => {
    const t = new ServerTiming(0);
    t.add('payment-state', 5);
    t.addReported(undefined);
    const h = parse(t.header(30));
    expect([...h.keys()]).toEqual(['total', 'payment-state', 'overhead']);
    expect(h.get('overhead')).toBe(30);
  });

  it('time() adds the time of the work, also when it fails', async () => {
    const t = new ServerTiming(0);
    await expect(t.time('store', Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(parse(t.header(performance.now())).has('store')).toBe(true);
  });
});
