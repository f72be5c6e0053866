// Disputes as providers report them: created by the first report, moved by later ones within the rules (the stage
// never goes back; a closed status stays closed within its stage; an older or repeated report changes nothing).
import { describe, expect, it } from 'vitest';
import { DISPUTE_STAGES, DISPUTE_STATUSES, PAYMENT_DISPUTE_FIELDS } from '../lib/schemas/dispute.ts';
import { beginConfirm } from './begin.ts';
import { CLOSED_DISPUTE_STATUSES, disputeOutcome, disputeView, paymentDisputeView, type DisputeDecision, type DisputeReport } from './disputes.ts';
import { createIntent } from './intent.ts';
import { applyOutcome } from './outcomes.ts';
import type { DisputeRow, StoredPayment } from './payment.ts';

const now = '2026-11-22T10:00:00.000Z';
const later = '2026-11-22T11:00:00.000Z';

function captured(): StoredPayment {
  const intent = createIntent('m1', { amount: 10_000, currency: 'EUR' } as never, {
    now: new Date(now),
    paymentId: `pay_${'1'.repeat(26)}`,
    clientSecret: (id) => `${id}_secret_x`,
    newCustomerId: () => 'cus_1',
    ephemeralSecret: () => 'epk_1',
    profileId: 'pro_00000000000000000001',
  });
  const confirmed = beginConfirm(
    intent,
    { payment_method: 'pay_later' },
    {
      now,
      operationId: 'op_a',
      connector: 'service_test',
      route: { merchant_connector_id: 'mca_00000000000000000001', connector_label: null, reason: 'default' },
    },
  );
  if (confirmed.kind !== 'apply') throw new Error('confirm refused');
  const d = applyOutcome(confirmed.payment, 'op_a', { kind: 'CAPTURED', connector_transaction_id: 'stp_1' }, now);
  if (d.kind !== 'apply') throw new Error('capture not applied');
  return d.payment;
}

let t = 0;
/** A report with a provider time later than every one before (unless given). */
function report(over: Partial<DisputeReport> = {}): DisputeReport {
  t++;
  return {
    connector_dispute_id: 'dp_provider_1',
    amount: 10_000,
    currency: 'EUR',
    dispute_stage: 'dispute',
    dispute_status: 'dispute_opened',
    connector_status: null,
    connector_reason: 'fraud',
    connector_reason_code: '10.4',
    challenge_required_by: '2026-12-01T00:00:00Z',
    connector_created_at: '2026-11-22T09:00:00Z',
    connector_updated_at: new Date(Date.parse(now) + t * 1000).toISOString(),
    ...over,
  };
}

const ctx = { now: later, disputeId: `dp_${'D'.repeat(26)}` };
function applied(d: DisputeDecision): StoredPayment {
  if (d.kind !== 'apply') throw new Error(`expected apply, got ${JSON.stringify(d)}`);
  return d.payment;
}
const only = (p: StoredPayment): DisputeRow => {
  expect(p.disputes).toHaveLength(1);
  return p.disputes![0]!;
};
/** The payment with its dispute opened at `stage`/`status`. */
const at = (stage: string, status: string) => applied(disputeOutcome(captured(), report({ dispute_stage: stage, dispute_status: status }), ctx));

describe('the first report creates the dispute', () => {
  it("with every field of spec 2.10 from the report and the payment; the payment's status does not change", () => {
    const p = captured();
    const next = applied(disputeOutcome(p, report({ connector_status: 'opened' }), ctx));
    const d = only(next);
    expect(d).toEqual({
      dispute_id: ctx.disputeId,
      payment_id: p.payment_id,
      attempt_id: p.attempts!.at(-1)!.attempt_id,
      amount: '10000',
      currency: 'EUR',
      dispute_stage: 'dispute',
      dispute_status: 'dispute_opened',
      connector: 'service_test',
      connector_status: 'opened',
      connector_dispute_id: 'dp_provider_1',
      connector_reason: 'fraud',
      connector_reason_code: '10.4',
      created_at: later,
      challenge_required_by: '2026-12-01T00:00:00.000Z',
      connector_created_at: '2026-11-22T09:00:00.000Z',
      connector_updated_at: d.connector_updated_at,
      profile_id: 'pro_00000000000000000001',
      merchant_connector_id: 'mca_00000000000000000001',
    });
    expect(d.attempt_id).toBeTruthy();
    expect(next.status).toBe(p.status);
    expect(next.amount_received).toBe(p.amount_received);
    expect(next.operations).toEqual(p.operations);
    expect(next.updated).toBe(later);
  });

  it('in any stage and status the provider first reports (a dispute may be first seen lost)', () => {
    for (const stage of DISPUTE_STAGES) {
      for (const status of DISPUTE_STATUSES) expect(only(at(stage, status))).toMatchObject({ dispute_stage: stage, dispute_status: status });
    }
  });

  it("a second connector_dispute_id is a second dispute; the currency defaults to the payment's", () => {
    const one = applied(disputeOutcome(captured(), report(), ctx));
    const two = applied(
      disputeOutcome(one, report({ connector_dispute_id: 'dp_provider_2', currency: null }), { now: later, disputeId: `dp_${'E'.repeat(26)}` }),
    );
    expect(two.disputes!.map((d) => [d.dispute_id, d.connector_dispute_id, d.currency])).toEqual([
      [ctx.disputeId, 'dp_provider_1', 'EUR'],
      [`dp_${'E'.repeat(26)}`, 'dp_provider_2', 'EUR'],
    ]);
  });

  it('connector_status defaults to the status when the provider gives none', () => {
    expect(only(at('pre_dispute', 'dispute_opened')).connector_status).toBe('dispute_opened');
  });

  it('a payment never sent to a provider cannot be disputed', () => {
    const intent = createIntent('m1', { amount: 100, currency: 'EUR' } as never, {
      now: new Date(now),
      paymentId: `pay_${'2'.repeat(26)}`,
      clientSecret: (id) => id,
      newCustomerId: () => 'c',
      ephemeralSecret: () => 'e',
    });
    expect(disputeOutcome(intent, report(), ctx)).toMatchObject({ kind: 'refused', code: 'IR_05' });
  });
});

describe('later reports move it', () => {
  it('opened -> challenged -> won, keeping its id and received time; fields the report leaves out are kept', () => {
    const p0 = at('dispute', 'dispute_opened');
    const p1 = applied(
      disputeOutcome(p0, report({ dispute_status: 'dispute_challenged', connector_status: 'challenged', connector_reason: null }), {
        now: '2030-01-01T00:00:00.000Z',
        disputeId: 'dp_other',
      }),
    );
    expect(only(p1)).toMatchObject({
      dispute_id: ctx.disputeId,
      created_at: later,
      dispute_status: 'dispute_challenged',
      connector_status: 'challenged',
      connector_reason: 'fraud',
    });
    const p2 = applied(disputeOutcome(p1, report({ dispute_status: 'dispute_won', amount: 9_000 }), ctx));
    expect(only(p2)).toMatchObject({ dispute_status: 'dispute_won', amount: '9000', dispute_id: ctx.disputeId });
    expect(only(p2).connector_updated_at! > only(p1).connector_updated_at!).toBe(true);
  });

  it('challenged may return to opened within a stage (only closed statuses are final)', () => {
    const p = applied(disputeOutcome(at('dispute', 'dispute_challenged'), report({ dispute_status: 'dispute_opened' }), ctx));
    expect(only(p).dispute_status).toBe('dispute_opened');
  });

  it('the stage moves forward, and a later stage reopens a closed dispute', () => {
    for (const [from, to] of [
      ['pre_dispute', 'dispute'],
      ['dispute', 'pre_arbitration'],
      ['pre_dispute', 'pre_arbitration'],
    ]) {
      for (const closed of CLOSED_DISPUTE_STATUSES) {
        const p = applied(disputeOutcome(at(from, closed), report({ dispute_stage: to, dispute_status: 'dispute_opened' }), ctx));
        expect(only(p)).toMatchObject({ dispute_stage: to, dispute_status: 'dispute_opened' });
      }
    }
  });

  it('the stage never goes backwards (ignored, an invalid move)', () => {
    for (const [from, to] of [
      ['dispute', 'pre_dispute'],
      ['pre_arbitration', 'dispute'],
      ['pre_arbitration', 'pre_dispute'],
    ]) {
      const d = disputeOutcome(at(from, 'dispute_opened'), report({ dispute_stage: to }), ctx);
      expect(d).toMatchObject({ kind: 'noop', invalid: true });
      expect((d as { reason: string }).reason).toContain(`from ${from} to ${to}`);
    }
  });

  it('within one stage a closed status never changes (ignored, an invalid move); the same closed status may be refreshed', () => {
    expect(CLOSED_DISPUTE_STATUSES).toEqual(['dispute_expired', 'dispute_accepted', 'dispute_cancelled', 'dispute_won', 'dispute_lost']);
    for (const closed of CLOSED_DISPUTE_STATUSES) {
      for (const status of DISPUTE_STATUSES.filter((s) => s !== closed)) {
        expect(disputeOutcome(at('dispute', closed), report({ dispute_status: status }), ctx), `${closed} -> ${status}`).toMatchObject({
          kind: 'noop',
          invalid: true,
        });
      }
      const refreshed = applied(disputeOutcome(at('dispute', closed), report({ dispute_status: closed, connector_reason_code: '13.1' }), ctx));
      expect(only(refreshed)).toMatchObject({ dispute_status: closed, connector_reason_code: '13.1' });
    }
  });

  it('open statuses may move to any status within their stage', () => {
    for (const open of ['dispute_opened', 'dispute_challenged']) {
      for (const status of DISPUTE_STATUSES) {
        expect(
          only(applied(disputeOutcome(at('pre_arbitration', open), report({ dispute_stage: 'pre_arbitration', dispute_status: status }), ctx))).dispute_status,
        ).toBe(status);
      }
    }
  });
});

describe('repeated and older reports change nothing', () => {
  it('the same report twice is applied once', () => {
    const r = report();
    const once = applied(disputeOutcome(captured(), r, ctx));
    expect(disputeOutcome(once, r, ctx)).toMatchObject({ kind: 'noop', invalid: false });
    expect(disputeOutcome(once, { ...r, dispute_status: 'dispute_won' }, ctx)).toMatchObject({ kind: 'noop', invalid: false });
  });

  it('a report older than the one applied never moves it back, even to a valid status', () => {
    const old = report({ dispute_status: 'dispute_opened' });
    const newer = report({ dispute_status: 'dispute_challenged' });
    const p = applied(disputeOutcome(applied(disputeOutcome(captured(), report({ connector_updated_at: '2026-01-01T00:00:00Z' }), ctx)), newer, ctx));
    const d = disputeOutcome(p, old, ctx);
    expect(d).toMatchObject({ kind: 'noop', invalid: false });
    expect((d as { reason: string }).reason).toContain('not newer');
    expect(only(p).dispute_status).toBe('dispute_challenged');
  });

  it('times are compared as instants, whatever their offset', () => {
    const p = applied(disputeOutcome(captured(), report({ connector_updated_at: '2026-11-22T12:00:00+01:00' }), ctx));
    expect(only(p).connector_updated_at).toBe('2026-11-22T11:00:00.000Z');
    expect(disputeOutcome(p, report({ dispute_status: 'dispute_won', connector_updated_at: '2026-11-22T11:30:00+01:00' }), ctx)).toMatchObject({
      kind: 'noop',
    });
    expect(only(applied(disputeOutcome(p, report({ dispute_status: 'dispute_won', connector_updated_at: '2026-11-22T11:00:01Z' }), ctx))).dispute_status).toBe(
      'dispute_won',
    );
  });

  it("without the provider's time, a report that changes nothing is ignored and one that changes something applies", () => {
    const r = report({ connector_updated_at: null });
    const p = applied(disputeOutcome(captured(), r, ctx));
    expect(disputeOutcome(p, r, ctx)).toMatchObject({ kind: 'noop', invalid: false });
    expect(only(applied(disputeOutcome(p, { ...r, dispute_status: 'dispute_lost' }, ctx))).dispute_status).toBe('dispute_lost');
  });
});

describe('bad values are refused (IR_05), naming the field', () => {
  const cases: [string, Partial<DisputeReport>, string][] = [
    ['unknown stage', { dispute_stage: 'arbitration' }, 'dispute_stage'],
    ['unknown status', { dispute_status: 'opened' }, 'dispute_status'],
    ['empty status', { dispute_status: '' }, 'dispute_status'],
    ['zero amount', { amount: 0 }, 'amount'],
    ['negative amount', { amount: -5 }, 'amount'],
    ['fractional amount', { amount: 1.5 }, 'amount'],
    ['unknown currency', { currency: 'EURO' }, 'currency'],
    ['bad time', { connector_updated_at: 'yesterday' }, 'connector_updated_at'],
    ['bad deadline', { challenge_required_by: 'soon' }, 'challenge_required_by'],
  ];
  it.each(cases)('%s', (_name, over, param) => {
    for (const p of [captured(), at('dispute', 'dispute_opened')]) {
      expect(disputeOutcome(p, report(over), ctx)).toMatchObject({ kind: 'refused', code: 'IR_05', param });
    }
  });
  it('no connector_dispute_id', () => {
    expect(disputeOutcome(captured(), report({ connector_dispute_id: '' }), ctx)).toMatchObject({ kind: 'refused', param: 'connector_dispute_id' });
  });
});

describe('views', () => {
  it("the payment's copy holds exactly spec 2.10's subset; the resource every field", () => {
    const d = only(at('dispute', 'dispute_opened'));
    expect(Object.keys(paymentDisputeView(d)).sort()).toEqual([...PAYMENT_DISPUTE_FIELDS].sort());
    expect(Object.keys(paymentDisputeView(d))).toHaveLength(11);
    expect(disputeView({ ...d, merchant_id: 'm1', payment_seq: 3 } as DisputeRow)).toEqual(d);
  });
});

describe('a dispute is about what the payment took (issue 19)', () => {
  it('an amount above what was captured, or another currency, is refused naming the field; at most the captured amount is taken', () => {
    const p = captured();
    expect(disputeOutcome(p, report({ amount: 99_999_999, currency: 'USD' }), ctx)).toMatchObject({ kind: 'refused', code: 'IR_05', param: 'currency' });
    expect(disputeOutcome(p, report({ amount: 99_999_999 }), ctx)).toMatchObject({ kind: 'refused', code: 'IR_05', param: 'amount' });
    expect(disputeOutcome(p, report({ amount: 10_001 }), ctx)).toMatchObject({ kind: 'refused', param: 'amount' });
    expect(only(applied(disputeOutcome(p, report({ amount: 10_000 }), ctx))).amount).toBe('10000');
    // A later report of a dispute may not raise it beyond the payment either.
    const opened = applied(disputeOutcome(p, report({ amount: 4_000 }), ctx));
    expect(disputeOutcome(opened, report({ amount: 20_000, dispute_status: 'dispute_challenged' }), ctx)).toMatchObject({ kind: 'refused', param: 'amount' });
  });
});
