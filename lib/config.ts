// Every setting the processes read from the environment, with its default, in one place.
const env = process.env;

function int(name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return n;
}

export const config = {
  mongodbUrl: env.MONGODB_URL || 'mongodb://127.0.0.1:27017/bnpl',
  redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379',
  /** Namespaces every Redis key (queues, pub/sub channels) so several stacks can share one Redis. */
  redisPrefix: env.REDIS_PREFIX || 'bnpl',
  port: int('PORT', 8080),
  /** Where customers reach the gateway: payment links point here. */
  publicBaseUrl: (env.PUBLIC_BASE_URL || `http://localhost:${int('PORT', 8080)}`).replace(/\/+$/, ''),
  paymentStateAddr: env.PAYMENT_STATE_ADDR || '127.0.0.1:50051',
  sandboxPort: int('SANDBOX_PORT', 8090),
  sandboxHost: env.SANDBOX_HOST || '127.0.0.1',
  sandboxUrl: env.SANDBOX_URL || `http://127.0.0.1:${int('SANDBOX_PORT', 8090)}`,
  /** The 3DS server of the external 3DS authentication (the sandbox's by default) and our key there. */
  threeDsServerUrl: env.THREE_DS_SERVER_URL || env.SANDBOX_URL || `http://127.0.0.1:${int('SANDBOX_PORT', 8090)}`,
  threeDsServerApiKey: env.THREE_DS_SERVER_API_KEY || 'sk_sandbox_three_ds_server',
  /** Our website as the 3DS requestor (EMV threeDSRequestorURL), shown to the cardholder by the ACS. */
  threeDsRequestorUrl: env.THREE_DS_REQUESTOR_URL || (env.PUBLIC_BASE_URL || `http://localhost:${int('PORT', 8080)}`).replace(/\/+$/, ''),
  adminApiKey: env.ADMIN_API_KEY || '',
  /** Key of the HMAC under which API secret keys are stored. */
  keyHashSecret: env.KEY_HASH_SECRET || '',
  /** 32 bytes as 64 hex characters: encrypts provider credentials and webhook hash keys at rest (AES-256-GCM). */
  masterEncKey: env.MASTER_ENC_KEY || '',
  /** How long a worker keeps a connector account's opened credentials before reading them again. */
  credentialsTtlMs: int('CREDENTIALS_TTL_MS', 30_000),
  /** How long a gateway may use its snapshot of a merchant's setup (profiles, connector accounts, review rule). */
  setupCacheMs: int('SETUP_CACHE_MS', 10_000),
  confirmWaitMs: int('CONFIRM_WAIT_MS', 10_000),
  /** Provider HTTP call timeout. */
  providerTimeoutMs: int('PROVIDER_TIMEOUT_MS', 30_000),
  /** BullMQ lock; a crashed worker's job is taken up again after about this long. */
  jobLockMs: int('JOB_LOCK_MS', 30_000),
  jobAttempts: int('JOB_ATTEMPTS', 6),
  jobBackoffMs: int('JOB_BACKOFF_MS', 1_000),
  workerConcurrency: int('WORKER_CONCURRENCY', 50),
  /** Requests per one-second window per API key at the gateway (429 RL_01 above it); 0 disables the limit. */
  rateLimitPerSecond: int('RATE_LIMIT_PER_SECOND', 1000),
  /** Keyless checkout calls (a payment link's pay button, its 3DS authentication) per payment per second; 0: off. */
  checkoutRateLimitPerSecond: int('CHECKOUT_RATE_LIMIT_PER_SECOND', 5),
  /** Status sync (psync) delays for operations the provider left pending, in ms. */
  syncDelaysMs: (env.SYNC_DELAYS_MS || '2000,5000,10000,30000,60000,300000,300000,300000,300000,300000')
    .split(',').map((s) => Number(s.trim())),
  /** Operations begun and not completed for this long are enqueued again by the recovery sweeper. */
  sweepAfterMs: int('SWEEP_AFTER_MS', 60_000),
  sweepIntervalMs: int('SWEEP_INTERVAL_MS', 15_000),
  sandboxSlowMs: int('SANDBOX_SLOW_MS', 15_000),
  sandboxReviewMs: int('SANDBOX_REVIEW_MS', 3_000),
  logLevel: env.LOG_LEVEL || 'info',
};
