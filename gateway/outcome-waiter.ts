// Lets a request wait for the outcome of its operation: payment-state publishes every applied transition on a
// Redis channel; one subscriber per gateway process wakes the requests waiting for that operation.
import type { Redis } from 'ioredis';
import { paymentEventsChannel } from '../lib/redis.ts';
import { log } from '../lib/log.ts';

export interface PaymentEvent {
  merchant_id: string;
  payment_id: string;
  operation_id: string;
  action: string;
  status: string;
  seq: number;
}

export class OutcomeWaiter {
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly sub: Redis;

  private constructor(sub: Redis) {
    this.sub = sub;
  }

  static async start(sub: Redis): Promise<OutcomeWaiter> {
    const w = new OutcomeWaiter(sub);
    sub.on('message', (_channel: string, message: string) => {
      try {
        const e = JSON.parse(message) as PaymentEvent;
        // Only an outcome wakes a waiter; the event of the operation's own start may arrive after it registered.
        if (e.action.startsWith('outcome:')) w.wake(e.operation_id);
      } catch (err) {
        log.warn('bad payment event', { err });
      }
    });
    await sub.subscribe(paymentEventsChannel());
    return w;
  }

  private wake(operationId: string): void {
    const set = this.waiting.get(operationId);
    if (!set) return;
    this.waiting.delete(operationId);
    for (const fn of set) fn();
  }

  /**
   * Resolves when an outcome of the operation is applied, or after timeoutMs. Register before the work starts;
   * `alreadyDone` is asked once after registering, for outcomes that landed before.
   */
  wait(operationId: string, timeoutMs: number, alreadyDone?: () => Promise<boolean>): { done: Promise<boolean>; cancel: () => void } {
    let resolve!: (v: boolean) => void;
    const done = new Promise<boolean>((r) => (resolve = r));
    const set = this.waiting.get(operationId) ?? new Set();
    const wake = () => {
      clearTimeout(timer);
      resolve(true);
    };
    set.add(wake);
    this.waiting.set(operationId, set);
    const cancel = () => {
      clearTimeout(timer);
      set.delete(wake);
      if (set.size === 0 && this.waiting.get(operationId) === set) this.waiting.delete(operationId);
      resolve(false);
    };
    const timer = setTimeout(cancel, timeoutMs);
    alreadyDone?.().then((yes) => yes && wake(), () => undefined);
    return { done, cancel };
  }

  async close(): Promise<void> {
    for (const id of [...this.waiting.keys()]) this.wake(id);
    this.sub.disconnect();
  }
}
