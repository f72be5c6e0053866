// Every route the gateway serves, read from the Express app itself (buildApp, never started), so that a test walking
// "every route" cannot miss one added later, however its path is written.
import { MongoClient } from 'mongodb';
import { buildApp } from '../../gateway/app.ts';
import type { Deps } from '../../gateway/operations.ts';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  /** The path a router is mounted at (app.use('/admin/queues', router)); '/' when mounted without one. */
  rawPath?: unknown;
}

/** A dependency that may be referenced while the routes are declared, and is never called. */
const inert: unknown = new Proxy(() => inert, { get: () => inert });

/** "METHOD /path" with Express parameters, each once, in declaration order. */
export function routesOfApp(): string[] {
  // An unconnected client: the routers only keep collection handles while they are declared.
  const db = new MongoClient('mongodb://127.0.0.1:1/routes').db();
  const app = buildApp(db, inert as Deps, async () => ({ ok: true, parts: {} })) as unknown as { router: { stack: Layer[] } };
  const routes = new Set<string>();
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) for (const m of Object.keys(layer.route.methods)) routes.add(`${m.toUpperCase()} ${prefix}${layer.route.path}`);
      else if (layer.handle?.stack) walk(layer.handle.stack, typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? prefix + layer.rawPath : prefix);
    }
  };
  walk(app.router.stack, '');
  return [...routes];
}
