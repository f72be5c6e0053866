import { createServer, type Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newRequestId, requestLog, routePattern, saneRequestId } from './request-log.ts';

describe('saneRequestId', () => {
  it('keeps a token of letters, digits and -_.:/+=@ up to 128 characters', () => {
    for (const ok of ['abc', 'req_123', '4bf92f35-77b3-4da6-a3ce-929d0e0e4736', 'a.b:c/d+e=f@g', 'x'.repeat(128)]) expect(saneRequestId(ok)).toBe(ok);
  });
  it('refuses anything else', () => {
    for (const bad of ['', ' ', 'a b', 'x'.repeat(129), 'a\nb', '"quoted"', 'a,b', '<script>', 'é', undefined, ['a'], 42])
      expect(saneRequestId(bad)).toBeUndefined();
  });
  it('generates unique sane ids', () => {
    const a = newRequestId();
    expect(saneRequestId(a)).toBe(a);
    expect(newRequestId()).not.toBe(a);
  });
});

describe('routePattern', () => {
  it('is the matched pattern with the router base, null when no route matched', () => {
    expect(routePattern({ route: { path: '/payments/:payment_id' }, baseUrl: '' } as never)).toBe('/payments/:payment_id');
    expect(routePattern({ route: { path: '/:id' }, baseUrl: '/refunds' } as never)).toBe('/refunds/:id');
    expect(routePattern({ route: undefined, baseUrl: '' } as never)).toBeNull();
  });
});

describe('requestLog middleware', () => {
  const lines: { msg: string; fields: Record<string, unknown> }[] = [];
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const app = express();
    const push = (level: string) => (msg: string, fields?: Record<string, unknown>) => lines.push({ msg, fields: { level, ...fields } });
    app.use(requestLog({ info: push('info'), debug: push('debug') }));
    app.use((req, _res, next) => {
      if (req.header('api-key') === 'k') req.merchantId = 'merchant_1';
      next();
    });
    app.get('/payments/:payment_id', (_req, res) => void res.json({ ok: true }));
    const sub = express.Router();
    sub.post('/:refund_id/cancel', (_req, res) => void res.status(409).json({}));
    app.use('/refunds', sub);
    app.get('/health/ready', (_req, res) => void res.json({ status: 'ready' }));
    app.get('/boom', () => {
      throw new Error('boom');
    });
    app.use((_req, res) => void res.status(404).json({ error: 'not found' }));
    server = createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const lineFor = async (requestId: string) => {
    for (let i = 0; i < 50 && !lines.some((l) => l.fields.request_id === requestId); i++) await new Promise((r) => setTimeout(r, 10));
    const found = lines.filter((l) => l.fields.request_id === requestId);
    expect(found).toHaveLength(1);
    return found[0];
  };

  it('answers the caller’s sane x-request-id and logs one line with the route pattern, not the raw path', async () => {
    const res = await fetch(`${base}/payments/pay_abc123`, { headers: { 'x-request-id': 'client-id-1', 'api-key': 'k' } });
    expect(res.headers.get('x-request-id')).toBe('client-id-1');
    const l = await lineFor('client-id-1');
    expect(l.msg).toBe('request');
    expect(l.fields).toMatchObject({ method: 'GET', route: '/payments/:payment_id', status: 200, merchant_id: 'merchant_1', request_id: 'client-id-1' });
    expect(typeof l.fields.duration_ms).toBe('number');
    expect(l.fields).toHaveProperty('trace_id');
    expect(JSON.stringify(l.fields)).not.toContain('pay_abc123');
  });

  it('replaces an unsafe x-request-id with a generated one, on refusals and unknown routes too', async () => {
    const res = await fetch(`${base}/nowhere/xyz`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(res.status).toBe(404);
    const id = res.headers.get('x-request-id')!;
    expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    const l = await lineFor(id);
    expect(l.fields).toMatchObject({ method: 'GET', route: null, status: 404, merchant_id: null });
  });

  it('logs a healthy probe at debug level only', async () => {
    const r = await fetch(`${base}/health/ready`);
    expect((await lineFor(r.headers.get('x-request-id')!)).fields).toMatchObject({ level: 'debug', route: '/health/ready', status: 200 });
    const p = await fetch(`${base}/payments/pay_1`);
    expect((await lineFor(p.headers.get('x-request-id')!)).fields).toMatchObject({ level: 'info' });
  });

  it('logs a routed sub-router request with its base and a thrown error’s 500', async () => {
    const r1 = await fetch(`${base}/refunds/ref_1/cancel`, { method: 'POST' });
    expect((await lineFor(r1.headers.get('x-request-id')!)).fields).toMatchObject({ route: '/refunds/:refund_id/cancel', status: 409 });
    const r2 = await fetch(`${base}/boom`);
    expect(r2.status).toBe(500);
    expect(r2.headers.get('x-request-id')).toMatch(/^req_/);
    expect((await lineFor(r2.headers.get('x-request-id')!)).fields).toMatchObject({ route: '/boom', status: 500 });
  });
});
