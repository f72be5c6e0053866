// JSON logs, one object per line, carrying the active trace and span ids. Keys that may hold personal data or
// secrets are masked whatever the caller passes, so PII cannot reach the logs by accident.
import { trace } from '@opentelemetry/api';
import { config } from './config.ts';
import { maskCardNumbers } from './schemas/card-number.ts';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof LEVELS;

const SENSITIVE =
  /^(ssn|birth_date|email|phone|phone_country_code|name|first_name|last_name|line1|line2|line3|zip|city|api_key|api-key|client_secret|secret|password|authorization|customer|billing|shipping|address|ip_address|key_hash)$/i;
/**
 * Card data and secrets by key name, at any depth: card objects and their fields, every *secret* (client_secret,
 * api_secret, merchant_secret, webhook secrets), passwords, tokens, API keys, hash keys (payment_response_hash_key),
 * connector credentials (connector_account_details, key1, key2), private keys, cookies and signatures.
 */
const SECRET =
  /^(card|card_number|card_cvc|cvc|cvv|cvv2|pan|key\d*|cookie|set-cookie|connector_account_details)$|secret|passw(or)?d|token|api[_-]?key|hash_key|key_hash|private_key|signing_key|credential|authorization|signature/i;
/** Deeper than this, a value is not walked: it is dropped rather than logged unredacted. */
const MAX_DEPTH = 12;

/**
 * Database and BSON errors quote the values they refused (a key, a string with NUL): those may be what a client
 * sent, so only their kind and code are logged.
 */
function errorFields(e: Error & { code?: unknown; codeName?: unknown }): Record<string, unknown> {
  if (/^(Mongo|BSON)/.test(e.name)) return { name: e.name, code: e.code ?? null, codeName: e.codeName ?? null, message: '[database error text withheld]' };
  return { name: e.name, message: e.message };
}

export function redact(value: unknown, depth = 0): unknown {
  // A card number in any text (an error message quoting a request, a note) is masked too, not only under its key.
  if (typeof value === 'string') return maskCardNumbers(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return '[too deep]';
  if (value instanceof Error) {
    return Object.fromEntries(Object.entries(errorFields(value)).map(([k, v]) => [k, typeof v === 'string' ? maskCardNumbers(v) : v]));
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SENSITIVE.test(k) || SECRET.test(k) ? '[redacted]' : redact(v, depth + 1);
  return out;
}

let service = process.env.OTEL_SERVICE_NAME || 'bnpl';
export function setLogService(name: string): void {
  service = name;
}

function write(level: Level, msg: string, fields?: Record<string, unknown>): void {
  if (LEVELS[level] < (LEVELS[config.logLevel as Level] ?? 20)) return;
  const span = trace.getActiveSpan()?.spanContext();
  const line = {
    time: new Date().toISOString(),
    level,
    service,
    msg: maskCardNumbers(msg),
    ...(span ? { trace_id: span.traceId, span_id: span.spanId } : {}),
    ...(fields ? (redact(fields) as object) : {}),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

export const log = {
  debug: (msg: string, f?: Record<string, unknown>) => write('debug', msg, f),
  info: (msg: string, f?: Record<string, unknown>) => write('info', msg, f),
  warn: (msg: string, f?: Record<string, unknown>) => write('warn', msg, f),
  error: (msg: string, f?: Record<string, unknown>) => write('error', msg, f),
};
