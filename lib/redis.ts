import { Redis } from 'ioredis';
import { config } from './config.ts';

/** A Redis connection suitable for BullMQ (which needs maxRetriesPerRequest null on blocking clients). */
export function redisConnection(): Redis {
  return new Redis(config.redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false });
}

/** The pub/sub channel on which payment-state announces every applied transition. */
export const paymentEventsChannel = () => `${config.redisPrefix}:payment-events`;
