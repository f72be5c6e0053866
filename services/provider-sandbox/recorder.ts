import type { Request, Response } from 'express';

// What the sandbox received, so tests can assert what a provider would have seen (calls, idempotency keys).
export interface RecordedCall {
  provider: string;
  method: string;
  path: string;
  idempotency_key: string | null;
  status: number;
  /** False when the client disconnected before the answer was sent. */
  answered: boolean;
  at: string;
  trace_id: string | null;
}

export class Recorder {
  readonly calls: RecordedCall[] = [];
  add(call: RecordedCall): void {
    this.calls.push(call);
    if (this.calls.length > 100_000) this.calls.splice(0, 10_000);
  }
  reset(): void {
    this.calls.length = 0;
  }
}

/** Idempotent replays as providers implement them: the first answer for a key is stored and returned again. */
export class IdempotencyStore {
  private readonly entries = new Map<string, { state: 'in_progress' } | { state: 'done'; status: number; body: unknown }>();
  private readonly attempts = new Map<string, number>();
  /** How many times a key's request was carried out (not replayed, not a 5xx): more than once is a double application. */
  private readonly appliedCount = new Map<string, number>();

  /** How many requests this key has carried, this one included. */
  count(key: string): number {
    const n = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, n);
    return n;
  }
  get(key: string) {
    return this.entries.get(key);
  }
  begin(key: string): void {
    this.entries.set(key, { state: 'in_progress' });
  }
  finish(key: string, status: number, body: unknown): void {
    this.entries.set(key, { state: 'done', status, body });
    this.appliedCount.set(key, (this.appliedCount.get(key) ?? 0) + 1);
  }
  /** Scoped keys carried out more than once (GET /__sandbox/applied?twice=true). */
  applied(onlyTwice: boolean): { key: string; applied: number }[] {
    return [...this.appliedCount].filter(([, n]) => !onlyTwice || n > 1).map(([key, applied]) => ({ key, applied }));
  }
  abandon(key: string): void {
    this.entries.delete(key);
  }
  reset(): void {
    this.entries.clear();
    this.attempts.clear();
    this.appliedCount.clear();
  }
  /** What SANDBOX_STATE_FILE keeps across a crash; keys still in progress died with the process. */
  save(): unknown {
    return {
      entries: [...this.entries].filter(([, e]) => e.state === 'done'),
      attempts: [...this.attempts],
      applied: [...this.appliedCount],
    };
  }
  load(s: any): void {
    this.reset();
    for (const [k, v] of s?.entries ?? []) this.entries.set(k, v);
    for (const [k, v] of s?.attempts ?? []) this.attempts.set(k, v);
    for (const [k, v] of s?.applied ?? []) this.appliedCount.set(k, v);
  }
}

/** A provider's error answer, in the sandbox's shared shape. */
export const failWith = (res: Response, status: number, code: string, message: string) => res.status(status).json({ error: { code, message } });

type Answer = { status: number; body: unknown };

/**
 * Runs a call under an idempotency key already scoped: a repeated key gets the first answer; a key still being
 * processed gets `inProgress` (the provider's own 409); a 5xx is not kept (the retry runs again).
 */
export async function runKeyed(idem: IdempotencyStore, scoped: string, res: Response, handle: () => Promise<Answer> | Answer, inProgress: () => void) {
  const seen = idem.get(scoped);
  if (seen?.state === 'in_progress') return inProgress();
  if (seen?.state === 'done') return res.status(seen.status).json(seen.body);
  idem.begin(scoped);
  try {
    const out = await handle();
    if (out.status >= 500) idem.abandon(scoped);
    else idem.finish(scoped, out.status, out.body);
    res.status(out.status).json(out.body);
  } catch (err) {
    idem.abandon(scoped);
    throw err;
  }
}

/**
 * Runs an idempotent POST as providers do: the Idempotency-Key header is required; a repeated key gets the first
 * answer; a key still being processed gets 409; a 5xx is not kept (the retry runs again).
 */
export async function idempotent(idem: IdempotencyStore, req: Request, res: Response, scope: string, handle: () => Promise<Answer>) {
  const key = req.header('idempotency-key');
  if (!key) return failWith(res, 400, 'invalid_request', 'Idempotency-Key header is required');
  return runKeyed(idem, `${scope}:${key}`, res, handle, () =>
    failWith(res, 409, 'idempotency_in_progress', 'A request with this Idempotency-Key is still being processed'),
  );
}
