// The kit's pieces, pure: reading answers (typed data, or an unknown outcome naming the path), definitions that do
// not hold together, outcome tables, money units.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readAnswer, maybeAnswer, UnexpectedAnswer } from './answer.ts';
import { defineConnector, definitionProblem } from './define.ts';
import { major, majorString, minorOf, taxRatePercent } from './money.ts';
import { states, unifiedTable } from './outcome.ts';
import { connector as serviceTest } from '../service_test/index.ts';

const Order = z.object({ orderDetails: z.object({ number: z.string(), status: z.enum(['Accepted', 'Rejected']) }) });

describe('readAnswer', () => {
  it('gives the typed body', () => {
    const o = readAnswer(Order, { status: 200, body: { orderDetails: { number: '1', status: 'Accepted' } } }, 'riverty order');
    expect(o.orderDetails.status).toBe('Accepted');
  });
  it('an answer of another shape is an UnexpectedAnswer naming the object, the HTTP status and the path', () => {
    const read = () => readAnswer(Order, { status: 200, body: { outcome: 'Accepted', orderDetails: { number: 7 } } }, 'riverty order');
    expect(read).toThrow(UnexpectedAnswer);
    try {
      read();
    } catch (err) {
      const e = err as UnexpectedAnswer;
      expect(e.message).toMatch(/^riverty order \(HTTP 200\): unexpected answer: /);
      expect(e.message).toContain('orderDetails.number: ');
      expect(e.message).toContain('orderDetails.status: ');
      expect(e.issues.map((i) => i.path)).toEqual(['orderDetails.number', 'orderDetails.status']);
    }
  });
  it('names array indexes and the whole body', () => {
    expect(() => readAnswer(z.object({ ids: z.array(z.string()) }), { status: 201, body: { ids: ['a', 2] } }, 'x')).toThrow('ids[1]: ');
    expect(() => readAnswer(Order, { status: 200, body: null }, 'x')).toThrow('(body): ');
  });
  it('maybeAnswer: null for another shape', () => {
    expect(maybeAnswer(Order, { status: 400, body: 'nope' })).toBeNull();
  });
});

describe('defineConnector', () => {
  it("takes a definition whose flows are the manifest's", () => {
    expect(definitionProblem(serviceTest)).toBeNull();
  });
  it('refuses a flow the manifest does not list, a listed flow that is absent, and a notification without a scheme', () => {
    const { refundSync: _, ...withoutRefundSync } = serviceTest;
    expect(() => defineConnector(withoutRefundSync)).toThrow(
      'the manifest lists the flows authorize, sync, capture, void, incrementalAuthorization, refund, refundSync, notification, the definition has authorize, sync, capture, void, incrementalAuthorization, refund, notification',
    );
    const manifest = { ...serviceTest.manifest, flows: serviceTest.manifest.flows.filter((f) => f !== 'void') };
    expect(() => defineConnector({ ...serviceTest, manifest })).toThrow('the definition has authorize, sync, capture, void');
    expect(() => defineConnector({ ...serviceTest, manifest: { ...serviceTest.manifest, webhook: null } })).toThrow('notification scheme');
  });
});

describe('outcome tables', () => {
  const ORDER = states(['Accepted', 'Pending', 'Rejected'], { Accepted: 'AUTHORIZED', Pending: 'PENDING', Rejected: 'DECLINED' });
  it('one table for the schema and the outcome', () => {
    expect(ORDER.schema.parse('Pending')).toBe('Pending');
    expect(ORDER.kind('Rejected')).toBe('DECLINED');
    // A state the provider's material does not name does not parse: an unknown outcome, not a guess.
    expect(ORDER.schema.safeParse('accepted').success).toBe(false);
  });
  it("unified codes: the code's reason, else provider_error", () => {
    const unified = unifiedTable({ credit_declined: 'customer_declined' });
    expect(unified('credit_declined').unified_code).toBe('UE_1000');
    expect(unified('something').unified_code).toBe('UE_9000');
  });
});

describe('money units', () => {
  it("moves digits, by the currency's exponent", () => {
    expect(major(12345, 'EUR')).toBe(123.45);
    expect(majorString(5, 'EUR')).toBe('0.05');
    expect(major(500, 'JPY')).toBe(500);
    expect(minorOf(123.45, 'EUR')).toBe(12345);
    expect(minorOf('0.1', 'EUR')).toBe(10);
    expect(() => minorOf('1.005', 'EUR')).toThrow(RangeError);
    expect(() => major(1, 'XXX')).toThrow();
  });
  it('tax rates from gross and tax', () => {
    expect(taxRatePercent(11900, 1900)).toBe(19);
    expect(taxRatePercent(10700, 700)).toBe(7);
    expect(taxRatePercent(1000, 0)).toBe(0);
  });
});
