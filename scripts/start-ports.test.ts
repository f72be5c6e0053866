// npm start's port check (scripts/start-ports.ts): which ports its processes use, which are taken, and URLs printed
// without credentials.
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { hostPort, portProblems, wantedPorts, withoutCredentials } from './start-ports.ts';

const listen = (host?: string) =>
  new Promise<Server>((resolve) => {
    const s = createServer();
    s.listen(0, host, () => resolve(s));
  });
const portOf = (s: Server) => (s.address() as { port: number }).port;

describe('start ports', () => {
  it('reads the gRPC address forms', () => {
    expect(hostPort('127.0.0.1:50051')).toEqual({ host: '127.0.0.1', port: 50051 });
    expect(hostPort('0.0.0.0:1')).toEqual({ host: '0.0.0.0', port: 1 });
    expect(hostPort('[::1]:7000')).toEqual({ host: '::1', port: 7000 });
    expect(hostPort(':7000')).toEqual({ host: undefined, port: 7000 });
    expect(hostPort('payment-state')).toBeUndefined();
  });

  it('lists every port with the variable that sets it', () => {
    expect(wantedPorts({ port: 8080, paymentStateAddr: '127.0.0.1:50051', sandboxHost: '127.0.0.1', sandboxPort: 8090 })).toEqual([
      { variable: 'PORT', host: undefined, port: 8080 },
      { variable: 'PAYMENT_STATE_ADDR', host: '127.0.0.1', port: 50051 },
      { variable: 'SANDBOX_PORT', host: '127.0.0.1', port: 8090 },
    ]);
  });

  it('names a port in use (on 127.0.0.1 or every interface) and a port named twice, and nothing else', async () => {
    const [loopback, any] = [await listen('127.0.0.1'), await listen()];
    const free = await listen('127.0.0.1');
    const freePort = portOf(free);
    await new Promise((r) => free.close(r));
    try {
      expect(
        await portProblems([
          { variable: 'PORT', host: undefined, port: portOf(loopback) },
          { variable: 'PAYMENT_STATE_ADDR', host: '127.0.0.1', port: portOf(any) },
          { variable: 'SANDBOX_PORT', host: '127.0.0.1', port: freePort },
        ]),
      ).toEqual([
        `port ${portOf(loopback)} (PORT) is already in use (another npm start?); set PORT to use another`,
        `port ${portOf(any)} (PAYMENT_STATE_ADDR) is already in use (another npm start?); set PAYMENT_STATE_ADDR to use another`,
      ]);
      expect(
        await portProblems([
          { variable: 'PORT', host: undefined, port: freePort },
          { variable: 'SANDBOX_PORT', host: '127.0.0.1', port: freePort },
        ]),
      ).toEqual([`port ${freePort} is named by both PORT and SANDBOX_PORT; set SANDBOX_PORT to another`]);
    } finally {
      loopback.close();
      any.close();
    }
  });

  it('prints URLs without their credentials', () => {
    expect(withoutCredentials('mongodb://user:s3cret@db.example:27017/bnpl?authSource=admin')).toBe('mongodb://db.example:27017/bnpl?authSource=admin');
    expect(withoutCredentials('redis://:pw@127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(withoutCredentials('not a url')).toBe('(not a URL)');
  });
});
