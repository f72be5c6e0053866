// The secrets of `npm start`. A secret given in the environment is used as it is and never written down; one not
// given is read from the secrets file, or generated and saved there, so that API keys issued and credentials sealed
// before a restart still work after it, whichever secrets the environment happens to give.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export const SECRET_NAMES = ['ADMIN_API_KEY', 'KEY_HASH_SECRET', 'MASTER_ENC_KEY', 'SANDBOX_OPERATOR_KEY'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

const generate: Record<SecretName, () => string> = {
  ADMIN_API_KEY: () => `admin_${randomBytes(24).toString('hex')}`,
  KEY_HASH_SECRET: () => randomBytes(32).toString('hex'),
  MASTER_ENC_KEY: () => randomBytes(32).toString('hex'),
  SANDBOX_OPERATOR_KEY: () => `sbop_${randomBytes(24).toString('hex')}`,
};

export function devSecrets(env: NodeJS.ProcessEnv, file: string): { secrets: Record<SecretName, string>; supplied: Set<SecretName> } {
  const saved: Partial<Record<SecretName, string>> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const supplied = new Set(SECRET_NAMES.filter((n) => env[n]));
  const toSave = { ...saved };
  for (const n of SECRET_NAMES) if (!supplied.has(n) && !toSave[n]) toSave[n] = generate[n]();
  if (SECRET_NAMES.some((n) => toSave[n] !== saved[n])) writeFileSync(file, JSON.stringify(toSave, null, 2), { mode: 0o600 });
  const secrets = Object.fromEntries(SECRET_NAMES.map((n) => [n, supplied.has(n) ? env[n]! : toSave[n]!])) as Record<SecretName, string>;
  return { secrets, supplied };
}
