// service_test disputes. A dispute exists because an operator says so (the sandbox's own port, the operator key):
//   POST /sandbox/disputes                         raise one on a payment the sandbox authorized -> 201 {connector_dispute_id, dispute}
//   POST /sandbox/disputes/:connector_dispute_id   move it {status?, stage?} -> 200, or 409 invalid_dispute_move (unchanged)
// The operator speaks the spec's names (dispute_opened); the provider's API and notifications its own (opened).
// The merchant reads a dispute at GET /service_test/v1/disputes/:id (Bearer, in imitation.ts).
import express, { type Router } from 'express';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { log } from '../../../../lib/log.ts';
import { Timestamp, str } from '../../../../lib/schemas/common.ts';
import { DISPUTE_STAGES, DISPUTE_STATUSES, type DisputeStageName } from '../../../../lib/schemas/dispute.ts';
import { failWith as fail } from '../../recorder.ts';
import { laterThan } from './clock.ts';
import type { NotificationType } from '../../notifier.ts';
import { moveDispute, providerStatus, type ProviderDisputeStatus } from './dispute-moves.ts';

export interface SandboxDispute {
  id: string;
  payment_id: string;
  amount: number;
  currency: string;
  reason: string;
  reason_code: string;
  stage: DisputeStageName;
  status: ProviderDisputeStatus;
  challenge_required_by: string | null;
  created_at: string;
  updated_at: string;
}

const CreateDispute = z.strictObject({
  connector_transaction_id: str(64).min(1),
  amount: z.number().int().positive(),
  reason: str(255).min(1),
  reason_code: str(255).min(1),
  stage: z.enum(DISPUTE_STAGES),
  status: z.enum(DISPUTE_STATUSES),
  challenge_required_by: Timestamp.nullable().optional(),
});

const MoveDispute = z
  .strictObject({
    stage: z.enum(DISPUTE_STAGES).optional(),
    status: z.enum(DISPUTE_STATUSES).optional(),
  })
  .refine((m) => m.stage !== undefined || m.status !== undefined, { message: 'give status, stage or both', path: ['status'] });

/** The first problem of a body, naming its field. */
function problem(error: z.ZodError): string {
  const issue = error.issues[0]!;
  if (issue.code === 'unrecognized_keys') return `${issue.keys.join(', ')}: unknown field`;
  return `${issue.path.join('.') || 'body'}: ${issue.message}`;
}

/** What the disputes need of a payment. */
export interface DisputedPayment {
  id: string;
  currency: string;
  captured: number;
  webhook_url: string | null;
  webhook_secret: string | null;
}

export function serviceTestDisputes(deps: {
  payment(id: string): DisputedPayment | undefined;
  notify(to: DisputedPayment | undefined, type: NotificationType, objectId: string, data: unknown): void;
}) {
  const disputes = new Map<string, SandboxDispute>();
  const view = (d: SandboxDispute) => ({ ...d });
  const notify = (d: SandboxDispute, type: NotificationType) => deps.notify(deps.payment(d.payment_id), type, d.id, view(d));

  const operator: Router = express.Router();
  operator.post('/disputes', (req, res) => {
    const parsed = CreateDispute.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', problem(parsed.error));
    const b = parsed.data;
    const p = deps.payment(b.connector_transaction_id);
    if (!p) return fail(res, 404, 'not_found', 'connector_transaction_id: no such payment');
    if (b.amount > p.captured) return fail(res, 400, 'invalid_request', `amount: must be at most the payment's captured amount (${p.captured})`);
    const now = new Date().toISOString();
    const d: SandboxDispute = {
      id: `dp_${randomBytes(12).toString('hex')}`,
      payment_id: p.id,
      amount: b.amount,
      currency: p.currency,
      reason: b.reason,
      reason_code: b.reason_code,
      stage: b.stage,
      status: providerStatus(b.status),
      challenge_required_by: b.challenge_required_by ? new Date(b.challenge_required_by).toISOString() : null,
      created_at: now,
      updated_at: now,
    };
    disputes.set(d.id, d);
    notify(d, 'dispute.created');
    res.status(201).json({ connector_dispute_id: d.id, dispute: view(d) });
  });

  operator.post('/disputes/:id', (req, res) => {
    const d = disputes.get(req.params.id);
    if (!d) return fail(res, 404, 'not_found', 'connector_dispute_id: no such dispute');
    const parsed = MoveDispute.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', problem(parsed.error));
    const move = moveDispute(d, { stage: parsed.data.stage, status: parsed.data.status && providerStatus(parsed.data.status) });
    if (!move.applied) {
      log.warn('invalid dispute move ignored', { dispute_id: d.id, stage: d.stage, status: d.status, move: parsed.data, reason: move.reason });
      return fail(res, 409, 'invalid_dispute_move', move.reason);
    }
    Object.assign(d, move.next, { updated_at: laterThan(d.updated_at) });
    notify(d, 'dispute.updated');
    res.json({ connector_dispute_id: d.id, dispute: view(d) });
  });

  return { operator, disputes, view, reset: () => disputes.clear() };
}
