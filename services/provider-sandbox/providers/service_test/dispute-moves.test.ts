import { describe, expect, it } from 'vitest';
import { DISPUTE_STAGES, DISPUTE_STATUSES } from '../../../../lib/schemas/dispute.ts';
import { CLOSED_DISPUTE_STATUSES, PROVIDER_DISPUTE_STATUSES, moveDispute, providerStatus, specStatus } from './dispute-moves.ts';

describe('the provider words for the spec statuses', () => {
  it('are the spec names without dispute_, one for one', () => {
    expect(DISPUTE_STATUSES.map(providerStatus)).toEqual([...PROVIDER_DISPUTE_STATUSES]);
    expect(PROVIDER_DISPUTE_STATUSES.map(specStatus)).toEqual([...DISPUTE_STATUSES]);
  });
});

describe('moveDispute', () => {
  it('moves within a stage from an open status (opened, challenged) to any other', () => {
    expect(moveDispute({ stage: 'dispute', status: 'opened' }, { status: 'challenged' })).toEqual({
      applied: true,
      next: { stage: 'dispute', status: 'challenged' },
    });
    expect(moveDispute({ stage: 'dispute', status: 'challenged' }, { status: 'won' })).toEqual({ applied: true, next: { stage: 'dispute', status: 'won' } });
    expect(moveDispute({ stage: 'pre_dispute', status: 'opened' }, { status: 'accepted', stage: 'pre_dispute' }).applied).toBe(true);
  });

  it('never changes a closed status within its stage', () => {
    for (const closed of CLOSED_DISPUTE_STATUSES) {
      for (const status of PROVIDER_DISPUTE_STATUSES) {
        const m = moveDispute({ stage: 'dispute', status: closed }, { status });
        expect(m.applied).toBe(false);
      }
    }
  });

  it('moves the stage only forward; a new stage reopens, as opened unless the move names a status', () => {
    expect(moveDispute({ stage: 'dispute', status: 'lost' }, { stage: 'pre_arbitration' })).toEqual({
      applied: true,
      next: { stage: 'pre_arbitration', status: 'opened' },
    });
    expect(moveDispute({ stage: 'pre_dispute', status: 'opened' }, { stage: 'pre_arbitration', status: 'challenged' })).toEqual({
      applied: true,
      next: { stage: 'pre_arbitration', status: 'challenged' },
    });
    for (const [i, from] of DISPUTE_STAGES.entries()) {
      for (const to of DISPUTE_STAGES.slice(0, i)) {
        const m = moveDispute({ stage: from, status: 'opened' }, { stage: to, status: 'opened' });
        expect(m).toMatchObject({ applied: false, reason: expect.stringContaining('forward') });
      }
    }
  });

  it('refuses a move that changes nothing', () => {
    expect(moveDispute({ stage: 'dispute', status: 'opened' }, { status: 'opened' }).applied).toBe(false);
    expect(moveDispute({ stage: 'dispute', status: 'challenged' }, { stage: 'dispute' }).applied).toBe(false);
    expect(moveDispute({ stage: 'dispute', status: 'opened' }, {}).applied).toBe(false);
  });
});
