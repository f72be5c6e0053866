// Lets a request wait for the outcome of its operation: payment-state publishes every applied transition on a
// Redis channel; one subscriber per gateway process wakes the requests waiting for that operation.
import type { Redis } from 'ioredis';
import { paymentEventsChannel } from '../lib/redis.ts';
import { log } from '../lib/log.ts';
import type { PaymentEvent } from '../adapters/payment-store.ts';

const OUTCOME_MARK = '"action":"outcome:';

export class OutcomeWaiter {
  private readonly waiting = new Map<string, Set<(e: PaymentEvent | null) => void>>();
  private readonly sub: Redis;

  private constructor(sub: Redis) {
    this.sub = sub;
  }

  static async start(sub: Redis): Promise<OutcomeWaiter> {
    const w = new OutcomeWaiter(sub);
    sub.on('message', (_channel: string, message: string) => {
      // Every gateway hears every transition of every payment (about 4 kB of JSON each): only an outcome that a
      // request here waits for is worth parsing (issue 24). payment-state writes the event with JSON.stringify (no
      // spaces), so an event whose action is an outcome holds `"action":"outcome:` (a nested field that matches only
      // lets it through to the check below).
      if (w.waiting.size === 0 || !message.includes(OUTCOME_MARK)) return;
      try {
        const e = JSON.parse(message) as PaymentEvent;
        // Only an outcome (new, or unchanged) wakes a waiter; the event of the operation's own start may arrive after
        // it registered.
        if (e.action.startsWith('outcome:')) w.wake(e.operation_id, e);
      } catch (err) {
        log.warn('bad payment event', { err });
      }
    });
    await sub.subscribe(paymentEventsChannel());
    return w;
  }

  private wake(operationId: string, event: PaymentEvent | null): void {
    const set = this.waiting.get(operationId);
    if (!set) return;
    this.waiting.delete(operationId);
    for (const fn of set) fn(event);
  }

  /**
   * Resolves with the outcome's event when an outcome of the operation is applied (null when it was found by
   * `alreadyDone`), or with undefined after timeoutMs. Register before the work starts; `alreadyDone` is asked
   * once after registering, for outcomes that landed before.
   */
  wait(
    operationId: string,
    timeoutMs: number,
    alreadyDone?: () => Promise<boolean>,
  ): { done: Promise<PaymentEvent | null | undefined>; cancel: () => void; timeoutIn: (ms: number) => void } {
    let resolve!: (v: PaymentEvent | null | undefined) => void;
    const done = new Promise<PaymentEvent | null | undefined>((r) => (resolve = r));
    const set = this.waiting.get(operationId) ?? new Set();
    const wake = (event: PaymentEvent | null) => {
      clearTimeout(timer);
      resolve(event);
    };
    set.add(wake);
    this.waiting.set(operationId, set);
    const cancel = () => {
      clearTimeout(timer);
      set.delete(wake);
      if (set.size === 0 && this.waiting.get(operationId) === set) this.waiting.delete(operationId);
      resolve(undefined);
    };
    let timer = setTimeout(cancel, timeoutMs);
    // The wait ends timeoutMs from now instead (registered before the work's length was known).
    const timeoutIn = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(cancel, ms);
    };
    alreadyDone?.().then(
      (yes) => yes && wake(null),
      () => undefined,
    );
    return { done, cancel, timeoutIn };
  }

  async close(): Promise<void> {
    for (const id of [...this.waiting.keys()]) this.wake(id, null);
    this.sub.disconnect();
  }
}
