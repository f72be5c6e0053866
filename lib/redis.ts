import { Redis } from 'ioredis';
import { config } from './config.ts';

/** A Redis connection suitable for BullMQ (which needs maxRetriesPerRequest null on blocking clients). */
export function redisConnection(): Redis {
  return new Redis(config.redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false });
}

/** The pub/sub channel on which payment-state announces every applied transition. */
export const paymentEventsChannel = () => `${config.redisPrefix}:payment-events`;

/** The pub/sub channel on which a gateway announces a change of a merchant's setup (message: the merchant id). */
export const merchantSetupChannel = () => `${config.redisPrefix}:merchant-setup-changed`;
