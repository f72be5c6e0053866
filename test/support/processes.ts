// What the tests that run `npm start` itself share: the processes it started, and dropping the stores a run used.
import { execFileSync } from 'node:child_process';
import { MongoClient } from 'mongodb';
import { Redis } from 'ioredis';

/** The direct children of `pid` (ps), with their command lines. */
export function childrenOf(pid: number): { pid: number; cmd: string }[] {
  try {
    return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)])
      .toString()
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [p, ...rest] = l.trim().split(/\s+/);
        return { pid: Number(p), cmd: rest.join(' ') };
      });
  } catch {
    return [];
  }
}

export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Drops the MongoDB database and the Redis keys of one run. */
export async function dropStores(mongoUrl: string, redisPrefix: string | undefined): Promise<void> {
  const mongo = await MongoClient.connect(mongoUrl);
  await mongo
    .db()
    .dropDatabase()
    .catch(() => undefined);
  await mongo.close();
  const redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  const keys = await redis.keys(`${redisPrefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
}
