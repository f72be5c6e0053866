// Every setting the processes read from the environment, with its default, in one place: one zod schema, parsed at
// import. A bad value stops the process at start (exit code 2) with a message naming the variable and what it expects.
import { z } from 'zod';

/** A 64-hex-character key (MASTER_ENC_KEY and each of MASTER_ENC_KEYS_PREVIOUS); lib/secret-box.ts uses the same rule. */
export const isKeyHex = (s: string): boolean => /^[0-9a-f]{64}$/i.test(s);
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

const unset = (raw: string | undefined): raw is undefined | '' => raw === undefined || raw === '';

/** A string variable; unset or empty takes the default (as `env.X || default` did). */
const str = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((raw) => (unset(raw) ? fallback : raw));

/** A whole number from min to max; unset or empty takes the default. */
function int(fallback: number, max?: number) {
  const expected = max === undefined ? 'a non-negative integer' : `an integer from 0 to ${max}`;
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (unset(raw)) return fallback;
      const n = Number(raw.trim() === '' ? NaN : raw);
      if (!Number.isInteger(n) || n < 0 || (max !== undefined && n > max)) {
        ctx.addIssue({ code: 'custom', message: `must be ${expected}, got ${JSON.stringify(raw)}` });
        return z.NEVER;
      }
      return n;
    });
}

const port = (fallback: number) => int(fallback, 65535);

const schema = z.object({
  MONGODB_URL: str('mongodb://127.0.0.1:27017/bnpl'),
  REDIS_URL: str('redis://127.0.0.1:6379'),
  REDIS_PREFIX: str('bnpl'),
  PORT: port(8080),
  PUBLIC_BASE_URL: str(''),
  PROVIDER_WEBHOOK_BASE_URL: str(''),
  PAYMENT_STATE_ADDR: str('127.0.0.1:50051'),
  SANDBOX_PORT: port(8090),
  HEALTH_PORT: port(0),
  DRAIN_DELAY_MS: int(1_000),
  REUSE_PORT: z
    .enum(['true', 'false', ''])
    .optional()
    .transform((v) => v === 'true'),
  SANDBOX_HOST: str('127.0.0.1'),
  SANDBOX_URL: str(''),
  SANDBOX_OPERATOR_KEY: str(''),
  INSTANCE_ID: str(''),
  TRACE_VIEWER_URL: str('').superRefine((s, ctx) => {
    if (s !== '' && !(/^https?:\/\/[^\s]+$/.test(s) && s.includes('{trace_id}')))
      ctx.addIssue({ code: 'custom', message: `must be an http(s) URL containing {trace_id}, got ${JSON.stringify(s)}` });
  }),
  THREE_DS_SERVER_URL: str(''),
  THREE_DS_SERVER_API_KEY: str('sk_sandbox_three_ds_server'),
  THREE_DS_REQUESTOR_URL: str(''),
  ADMIN_API_KEY: str(''),
  ADMIN_SESSION_TTL_MS: int(8 * 3600 * 1000),
  DASHBOARD_SESSION_TTL_MS: int(8 * 3600 * 1000),
  DASHBOARD_SIGNIN_ATTEMPTS: int(10),
  KEY_HASH_SECRET: str(''),
  MASTER_ENC_KEY: str('').refine((s) => s === '' || isKeyHex(s), { message: 'must be 64 hex characters' }),
  SETUP_CACHE_MS: int(10_000),
  API_KEY_CACHE_MS: int(10_000),
  CONFIRM_WAIT_MS: int(10_000),
  PROVIDER_TIMEOUT_MS: int(30_000),
  JOB_LOCK_MS: int(30_000),
  JOB_ATTEMPTS: int(6),
  JOB_BACKOFF_MS: int(1_000),
  WORKER_CONCURRENCY: int(50),
  RATE_LIMIT_PER_SECOND: int(1000),
  RATE_LIMIT_PER_ADDRESS_PER_SECOND: int(2000),
  TRUST_PROXY: str(''),
  CHECKOUT_RATE_LIMIT_PER_SECOND: int(5),
  PROVIDER_NOTIFICATIONS_PER_SECOND: int(50),
  NOTICE_SYNC_DELAY_MS: int(1000),
  WEBHOOK_SECRET_GRACE_MS: int(24 * 3600 * 1000),
  SYNC_DELAYS_MS: str('2000,5000,10000,30000,60000,300000,300000,300000,300000,300000').transform((raw, ctx) => {
    const delays = raw.split(',').map((s) => (s.trim() === '' ? NaN : Number(s.trim())));
    if (delays.some((n) => !Number.isInteger(n) || n < 0)) {
      ctx.addIssue({ code: 'custom', message: `must be comma-separated non-negative integers (ms), got ${JSON.stringify(raw)}` });
      return z.NEVER;
    }
    return delays;
  }),
  // The reference switch's schedule: 60 s, 2 x 5 min, 5 x 10 min, 5 x 1 h, 3 x 6 h (about a day).
  WEBHOOK_RETRY_DELAYS_MS: str(
    [60_000, ...Array(2).fill(300_000), ...Array(5).fill(600_000), ...Array(5).fill(3_600_000), ...Array(3).fill(21_600_000)].join(','),
  ).transform((raw, ctx) => {
    const delays = raw.split(',').map((s) => (s.trim() === '' ? NaN : Number(s.trim())));
    if (delays.some((n) => !Number.isInteger(n) || n < 0)) {
      ctx.addIssue({ code: 'custom', message: `must be comma-separated non-negative integers (ms), got ${JSON.stringify(raw)}` });
      return z.NEVER;
    }
    return delays;
  }),
  WEBHOOK_TIMEOUT_MS: int(15_000),
  WEBHOOK_CONCURRENCY: int(20),
  WEBHOOK_ENDPOINT_CONCURRENCY: int(4),
  WEBHOOK_BREAKER_FAILURES: int(5),
  WEBHOOK_BREAKER_COOLDOWN_MS: int(30_000),
  WEBHOOK_RELAY_INTERVAL_MS: int(1_000),
  WEBHOOK_REQUEUE_INTERVAL_MS: int(30_000),
  WEBHOOK_ALLOW_PRIVATE_URLS: z
    .enum(['true', 'false', ''])
    .optional()
    .transform((v) => v === 'true'),
  SWEEP_AFTER_MS: int(60_000),
  SWEEP_INTERVAL_MS: int(15_000),
  SANDBOX_SLOW_MS: int(15_000),
  SANDBOX_REVIEW_MS: int(3_000),
  LOG_FILE_MAX_BYTES: int(50 * 1024 * 1024),
  LOG_FILES_KEPT: int(5, 100),
  LOG_LEVEL: str('info').superRefine((s, ctx) => {
    if (!(LOG_LEVELS as readonly string[]).includes(s))
      ctx.addIssue({ code: 'custom', message: `must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(s)}` });
  }),
  BEGIN_RETRY_MS: int(15_000),
  BEGIN_ATTEMPT_MS: int(5_000),
  BEGIN_APPEND_MARGIN_MS: int(1_000),
  PICKUP_AFTER_MS: int(3_000),
  PICKUP_INTERVAL_MS: int(1_000),
  MASTER_ENC_KEYS_PREVIOUS: str('').superRefine((raw, ctx) => {
    raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .forEach((k, i) => {
        if (!isKeyHex(k)) ctx.addIssue({ code: 'custom', message: `[${i}] must be 64 hex characters (comma-separated former MASTER_ENC_KEYs)` });
      });
  }),
});

/** The name of every variable above (README's configuration table and .env.example list each; test/config.test.ts checks). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.shape);

/** A bad environment: `message` names each variable and what it expects, one per line. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.join('\n'));
    this.problems = problems;
    this.name = 'ConfigError';
  }
}

/** Reads the settings from an environment (process.env at import); throws ConfigError naming every bad variable. */
export function parseConfig(source: Record<string, string | undefined>) {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => {
        const name = String(i.path[0] ?? 'environment');
        const message = i.message.startsWith('[') ? i.message : ` ${i.message}`;
        return `${name}${message}`;
      }),
    );
  }
  const e = parsed.data;
  const publicBaseUrl = (e.PUBLIC_BASE_URL || `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const sandboxUrl = e.SANDBOX_URL || `http://127.0.0.1:${e.SANDBOX_PORT}`;
  return {
    mongodbUrl: e.MONGODB_URL,
    redisUrl: e.REDIS_URL,
    /** Namespaces every Redis key (queues, pub/sub channels) so several stacks can share one Redis. */
    redisPrefix: e.REDIS_PREFIX,
    port: e.PORT,
    /** Where customers reach the gateway: payment links point here. */
    publicBaseUrl,
    /** Where providers send their notifications (POST {this}/webhooks/...): PUBLIC_BASE_URL unless they reach us elsewhere. */
    providerWebhookBaseUrl: (e.PROVIDER_WEBHOOK_BASE_URL || publicBaseUrl).replace(/\/+$/, ''),
    paymentStateAddr: e.PAYMENT_STATE_ADDR,
    /**
     * The HTTP port of /health/live and /health/ready for a process that has no HTTP port of its own (payment-state,
     * a connector worker, the webhook worker); 0 (default): none. The gateway and the sandbox answer on their own port.
     */
    healthPort: e.HEALTH_PORT,
    /**
     * The gateway's PORT and a HEALTH_PORT are opened with SO_REUSEPORT (Linux): a new process can start beside the
     * running one on the same port, and the old one is then stopped (SIGTERM) and drains: a rolling restart on one host.
     */
    reusePort: e.REUSE_PORT,
    /**
     * After SIGTERM the gateway goes on answering this long (readiness 503, every answer closing its connection) before
     * it stops accepting: clients and load balancers move their next requests elsewhere instead of meeting a closed socket.
     */
    drainDelayMs: e.DRAIN_DELAY_MS,
    sandboxPort: e.SANDBOX_PORT,
    sandboxHost: e.SANDBOX_HOST,
    sandboxUrl,
    /** The key of the sandbox's operator routes (/__sandbox/*, /sandbox/*); unset: they refuse every call. */
    sandboxOperatorKey: e.SANDBOX_OPERATOR_KEY,
    /** The `npm start` run this process belongs to (scripts/start.ts); /health reports a part answering with another as down. */
    instanceId: e.INSTANCE_ID,
    /**
     * A trace viewer's page of one trace, `{trace_id}` standing for the id (Jaeger: http://127.0.0.1:16686/trace/{trace_id}):
     * the merchant dashboard links a payment's trace ids there. Empty (default): the ids are shown without a link.
     */
    traceViewerUrl: e.TRACE_VIEWER_URL,
    /** The 3DS server of the external 3DS authentication (the sandbox's by default) and our key there. */
    threeDsServerUrl: e.THREE_DS_SERVER_URL || sandboxUrl,
    threeDsServerApiKey: e.THREE_DS_SERVER_API_KEY,
    /** Our website as the 3DS requestor (EMV threeDSRequestorURL), shown to the cardholder by the ACS. */
    threeDsRequestorUrl: e.THREE_DS_REQUESTOR_URL || publicBaseUrl,
    adminApiKey: e.ADMIN_API_KEY,
    /** How long a browser's sign-in to the queue dashboard (/admin/queues/login) lasts; a changed ADMIN_API_KEY ends it sooner. */
    adminSessionTtlMs: e.ADMIN_SESSION_TTL_MS,
    /** How long a merchant's sign-in to the dashboard lasts. */
    dashboardSessionTtlMs: e.DASHBOARD_SESSION_TTL_MS,
    /** Dashboard sign-in attempts per email and client address in 15 minutes (0: no limit). */
    dashboardSignInAttempts: e.DASHBOARD_SIGNIN_ATTEMPTS,
    /** Key of the HMAC under which API secret keys are stored. */
    keyHashSecret: e.KEY_HASH_SECRET,
    /** 32 bytes as 64 hex characters: encrypts provider credentials and webhook hash keys at rest (AES-256-GCM). */
    masterEncKey: e.MASTER_ENC_KEY,
    /** How long a gateway may use its snapshot of a merchant's setup (profiles, connector accounts, review rule). */
    setupCacheMs: e.SETUP_CACHE_MS,
    /** How long a gateway may use a merchant's API key as it read it (revocation reaches it at once through Redis). */
    apiKeyCacheMs: e.API_KEY_CACHE_MS,
    confirmWaitMs: e.CONFIRM_WAIT_MS,
    /** Provider HTTP call timeout. */
    providerTimeoutMs: e.PROVIDER_TIMEOUT_MS,
    /** BullMQ lock; a crashed worker's job is taken up again after about this long. */
    jobLockMs: e.JOB_LOCK_MS,
    jobAttempts: e.JOB_ATTEMPTS,
    jobBackoffMs: e.JOB_BACKOFF_MS,
    workerConcurrency: e.WORKER_CONCURRENCY,
    /** Requests per API key in any rolling second at the gateway (429 RL_01 above it); 0 disables the limit. */
    rateLimitPerSecond: e.RATE_LIMIT_PER_SECOND,
    /** Requests per client address in any rolling second, counted before authentication; 0 disables the limit. */
    rateLimitPerAddressPerSecond: e.RATE_LIMIT_PER_ADDRESS_PER_SECOND,
    /**
     * Express's 'trust proxy' for the client address behind a reverse proxy: a hop count ("1") or addresses and
     * subnets ("loopback", "10.0.0.0/8"). Empty (default): the socket's address, X-Forwarded-For is ignored.
     */
    trustProxy: e.TRUST_PROXY,
    /** Keyless checkout calls (a payment link's pay button, its 3DS authentication) per payment per second; 0: off. */
    checkoutRateLimitPerSecond: e.CHECKOUT_RATE_LIMIT_PER_SECOND,
    /** Provider notifications per connector account in any rolling second (429 with Retry-After above it); 0: off. */
    providerNotificationsPerSecond: e.PROVIDER_NOTIFICATIONS_PER_SECOND,
    /**
     * The window in which a notice's status sync of a payment waits: notices about the payment arriving meanwhile
     * are merged into that one sync.
     */
    noticeSyncDelayMs: e.NOTICE_SYNC_DELAY_MS,
    /** How long a connector account's previous notification secret is still accepted after it changed. */
    webhookSecretGraceMs: e.WEBHOOK_SECRET_GRACE_MS,
    /** Status sync (psync) delays for operations the provider left pending, in ms. */
    syncDelaysMs: e.SYNC_DELAYS_MS,
    /** Operations begun and not completed for this long are enqueued again by the recovery sweeper. */
    /** Delays between a merchant webhook's delivery attempts (ms); its length is the number of retries. */
    webhookRetryDelaysMs: e.WEBHOOK_RETRY_DELAYS_MS,
    /** One delivery attempt's time limit (connect, send, answer). */
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    webhookConcurrency: e.WEBHOOK_CONCURRENCY,
    /** Deliveries in flight to one endpoint (URL origin) at once, across all webhook workers. */
    webhookEndpointConcurrency: e.WEBHOOK_ENDPOINT_CONCURRENCY,
    /** Failed attempts in a row after which an endpoint is paused (its deliveries wait; then one probe). */
    webhookBreakerFailures: e.WEBHOOK_BREAKER_FAILURES,
    /** How long a paused endpoint waits before its probe; doubled after each failed probe, up to 10 minutes. */
    webhookBreakerCooldownMs: e.WEBHOOK_BREAKER_COOLDOWN_MS,
    /** How often the relay looks for transitions whose events are not stored yet (it also wakes on every transition). */
    webhookRelayIntervalMs: e.WEBHOOK_RELAY_INTERVAL_MS,
    /** How often undelivered events whose job is gone from Redis are enqueued again. */
    webhookRequeueIntervalMs: e.WEBHOOK_REQUEUE_INTERVAL_MS,
    /** Merchant webhook URLs may name loopback and private addresses (local testing only). */
    webhookAllowPrivateUrls: e.WEBHOOK_ALLOW_PRIVATE_URLS,
    sweepAfterMs: e.SWEEP_AFTER_MS,
    sweepIntervalMs: e.SWEEP_INTERVAL_MS,
    sandboxSlowMs: e.SANDBOX_SLOW_MS,
    sandboxReviewMs: e.SANDBOX_REVIEW_MS,
    logLevel: e.LOG_LEVEL as string,
    /** `npm start`'s log files (<state dir>/logs/<process>.log): rotated past this size (0: only at each start). */
    logFileMaxBytes: e.LOG_FILE_MAX_BYTES,
    /** How many rotated log files of each process `npm start` keeps (<process>.log.1 the newest). */
    logFilesKept: e.LOG_FILES_KEPT,
    /** How long the gateway keeps sending a Begin that got no answer (payment-state restarting) before it reads the store. */
    beginRetryMs: e.BEGIN_RETRY_MS,
    /** The deadline of one Begin attempt. */
    beginAttemptMs: e.BEGIN_ATTEMPT_MS,
    /**
     * payment-state records a Begin only while at least this much of its deadline is left: the time the write has to
     * land before the caller, its deadline passed, reads the store to learn whether it was recorded.
     */
    beginAppendMarginMs: e.BEGIN_APPEND_MARGIN_MS,
    /** Operations begun this long ago with no job (a crash between Begin and enqueue) are enqueued by payment-state. */
    pickupAfterMs: e.PICKUP_AFTER_MS,
    pickupIntervalMs: e.PICKUP_INTERVAL_MS,
    /** Former MASTER_ENC_KEYs (comma-separated, 64 hex each): values sealed under them still open until re-sealed. */
    masterEncKeysPrevious: e.MASTER_ENC_KEYS_PREVIOUS,
  };
}
export type Config = ReturnType<typeof parseConfig>;

/** A process stops here, at start, on a bad environment: the message, no stack trace, exit code 2. */
function load(): Config {
  try {
    return parseConfig(process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`configuration: ${err.problems.join('\n  ')}`);
    process.exit(2);
  }
}

export const config = load();

/** What the gateway cannot run without; `npm start` sets them for development. */
export function gatewaySecretsProblem(c: Pick<Config, 'adminApiKey' | 'keyHashSecret' | 'masterEncKey'> = config): string | undefined {
  if (c.adminApiKey && c.keyHashSecret && isKeyHex(c.masterEncKey)) return undefined;
  return 'gateway: ADMIN_API_KEY, KEY_HASH_SECRET and MASTER_ENC_KEY (64 hex characters) must be set (npm start sets them for development)';
}

/** Stops the gateway at start (exit code 2) when one of its secrets is missing. */
export function requireGatewaySecrets(): void {
  const problem = gatewaySecretsProblem();
  if (!problem) return;
  console.error(problem);
  process.exit(2);
}

/**
 * A connector's setting, under the environment variable its manifest names (workers/connectors/<name>/manifest.ts
 * settings: base URL, the sandbox's default key), else the manifest's default; 'sandbox' is the sandbox's address, 'sandbox/<path>' a path under it (a provider
 * imitated at /<name>, whose real API has no such prefix: 'sandbox/unzer' for the paths /v1/... of sbx-api.unzer.com).
 */
export const connectorSetting = (setting: { env: string; default: string }): string =>
  process.env[setting.env] ||
  (setting.default === 'sandbox' || setting.default.startsWith('sandbox/') ? config.sandboxUrl + setting.default.slice('sandbox'.length) : setting.default);
