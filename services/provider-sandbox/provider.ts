// What an imitated provider gives the sandbox (services/provider-sandbox/providers/<name>/imitation.ts): its HTTP API,
// mounted under /<name>, a reset for tests, views of its state under /__sandbox/<name>/<view>, and the operator calls
// (a provider's back office: raising a dispute) under /sandbox.
import type { Router } from 'express';
import type { IdempotencyStore } from './recorder.ts';

export interface SandboxProvider {
  router: Router;
  reset(): void;
  /** GET /__sandbox/<name>/<view>?<query>: what the provider holds, for tests. */
  views: Record<string, (query: Record<string, unknown>) => unknown>;
  /** Operator calls, mounted at /sandbox on the sandbox's own port, behind the operator key (operator-auth.ts). */
  operator?: Router;
  /** What the provider keeps across a crash of the sandbox when SANDBOX_STATE_FILE is set (a provider's database);
   * providers without it start empty again. */
  state?: { save(): unknown; load(saved: unknown): void };
}

/** Each providers/<name>/imitation.ts exports `imitation`; the sandbox mounts every folder it finds. */
export type Imitation = (idem: IdempotencyStore, publicUrl: () => string) => SandboxProvider;
