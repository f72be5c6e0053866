import { describe, expect, it } from 'vitest';
import { failedJobFields, failureFields, jobFields, outcomeFields } from './job-log.ts';

const data = {
  merchant_id: 'm_1',
  payment_id: 'pay_1',
  operation_id: 'op_1',
  kind: 'refund',
  connector: 'service_test',
  mode: 'execute',
  sync_round: 0,
} as const;

describe('worker job log fields', () => {
  it('name the payment, operation, kind and connector', () => {
    expect(jobFields(data)).toEqual({ payment_id: 'pay_1', operation_id: 'op_1', kind: 'refund', connector: 'service_test', merchant_id: 'm_1' });
    expect(jobFields({ ...data, mode: 'sync', sync_round: 2 })).toMatchObject({ mode: 'sync', sync_round: 2 });
    expect(jobFields(undefined)).toMatchObject({ payment_id: null, operation_id: null });
  });
  it('give the reason of an outcome that is not a success', () => {
    expect(outcomeFields({ kind: 'REFUNDED' })).toEqual({ outcome: 'REFUNDED' });
    expect(outcomeFields({ kind: 'FAILED', error_code: 'R01', error_message: 'refund refused', unified_code: 'UE_9000' })).toEqual({
      outcome: 'FAILED',
      error_code: 'R01',
      error_message: 'refund refused',
      unified_code: 'UE_9000',
      unified_message: null,
    });
  });
  it('give a failed attempt’s reason and whether it was the last', () => {
    const err = Object.assign(new Error('provider timed out'), { code: 'ETIMEDOUT' });
    expect(failureFields(err)).toEqual({ error_name: 'Error', error_code: 'ETIMEDOUT', error_message: 'provider timed out' });
    expect(failedJobFields({ data, id: 'op_1', attemptsMade: 6, opts: { attempts: 6 } } as never, err)).toMatchObject({
      payment_id: 'pay_1',
      operation_id: 'op_1',
      kind: 'refund',
      attempts_made: 6,
      final: true,
      error_message: 'provider timed out',
    });
    expect(failedJobFields({ data, id: 'op_1', attemptsMade: 1, opts: { attempts: 6 } } as never, err)).toMatchObject({ final: false });
  });
});
