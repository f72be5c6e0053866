// lib/lifecycle.ts, pure: the stop steps run in order, a failing step does not stop the rest, a second signal does
// not run them again, and a stop that hangs is ended by the force-exit timeout.
import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { onShutdown, type StopStep } from './lifecycle.ts';

function harness(steps: (ran: string[]) => StopStep[], forceExitMs?: number) {
  const target = new EventEmitter();
  const ran: string[] = [];
  const exits: number[] = [];
  const lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
  const log = {
    info: (msg: string, fields?: Record<string, unknown>) => lines.push({ level: 'info', msg, fields }),
    error: (msg: string, fields?: Record<string, unknown>) => lines.push({ level: 'error', msg, fields }),
  };
  const stop = onShutdown({ name: 'proc', steps: steps(ran), target, exit: (code) => exits.push(code), log, forceExitMs });
  return { target, ran, exits, lines, stop };
}

describe('onShutdown', () => {
  it('runs the steps in order, awaiting each, then logs stopped and exits 0', async () => {
    const h = harness((ran) => [
      [
        'intake',
        () => {
          ran.push('intake');
        },
      ],
      [
        'drain',
        async () => {
          await new Promise((r) => setTimeout(r, 20));
          ran.push('drain');
        },
      ],
      [
        'close',
        async () => {
          ran.push('close');
        },
      ],
    ]);
    h.target.emit('SIGTERM');
    await vi.waitFor(() => expect(h.exits).toEqual([0]));
    expect(h.ran).toEqual(['intake', 'drain', 'close']);
    expect(h.lines.map((l) => l.msg)).toEqual(['proc stopping', 'proc stopped']);
    expect(h.lines[0]!.fields).toEqual({ signal: 'SIGTERM' });
  });

  it('logs a failing step and still runs the rest', async () => {
    const h = harness((ran) => [
      [
        'a',
        () => {
          ran.push('a');
          throw new Error('boom');
        },
      ],
      ['b', () => Promise.reject(new Error('bang')).finally(() => ran.push('b'))],
      [
        'c',
        () => {
          ran.push('c');
        },
      ],
    ]);
    await h.stop('SIGINT');
    expect(h.ran).toEqual(['a', 'b', 'c']);
    expect(h.exits).toEqual([0]);
    expect(h.lines.filter((l) => l.level === 'error').map((l) => l.fields?.step)).toEqual(['a', 'b']);
  });

  it('runs the steps once, whatever signals follow', async () => {
    let release!: () => void;
    const h = harness((ran) => [
      [
        'slow',
        () =>
          new Promise<void>((r) => {
            ran.push('slow');
            release = r;
          }),
      ],
      [
        'after',
        () => {
          ran.push('after');
        },
      ],
    ]);
    h.target.emit('SIGTERM');
    h.target.emit('SIGINT');
    h.target.emit('SIGTERM');
    const again = h.stop('SIGTERM');
    release();
    await again;
    expect(h.ran).toEqual(['slow', 'after']);
    expect(h.exits).toEqual([0]);
    expect(h.lines.filter((l) => l.msg === 'proc stopping')).toHaveLength(1);
  });

  it('exits 1 when a step hangs past the force-exit timeout', async () => {
    const h = harness(() => [['hang', () => new Promise(() => undefined)]], 30);
    void h.stop('SIGTERM');
    await vi.waitFor(() => expect(h.exits).toEqual([1]));
    expect(h.lines.some((l) => l.level === 'error' && l.msg.includes('did not stop within 30 ms'))).toBe(true);
  });
});
