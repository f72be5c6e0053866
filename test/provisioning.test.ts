// scripts/services.sh's provisioning of FerretDB's PostgreSQL database is idempotent under concurrency: two runs at
// once (two clones, parallel CI) against a database that does not exist yet both succeed and leave it complete.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);
const pgBase = (process.env.FERRETDB_POSTGRESQL_URL || 'postgres://postgres@127.0.0.1:5432/ferretdb').replace(/\/[^/]*$/, '');
const psql = (db: string, sql: string) => run('psql', [`${pgBase}/${db}`, '-qAtc', sql]).then((r) => r.stdout.trim());

describe('services.sh prepare-database', () => {
  it('two concurrent runs against a fresh database name both succeed', async () => {
    const db = `bnpl_test_prov_${randomBytes(4).toString('hex')}`;
    const env = { ...process.env, FERRETDB_POSTGRESQL_URL: `${pgBase}/${db}` };
    const once = () =>
      run('bash', ['scripts/services.sh', 'prepare-database'], { cwd: root, env }).then(
        () => 'ok',
        (e: { stderr?: string }) => `failed: ${e.stderr}`,
      );
    try {
      expect(await psql('postgres', `select count(*) from pg_database where datname = '${db}'`)).toBe('0');
      expect(await Promise.all([once(), once(), once()])).toEqual(['ok', 'ok', 'ok']);
      expect(await psql(db, `select evtname || ' ' || evtenabled::text from pg_event_trigger`)).toBe('bnpl_ferretdb_gin A');
      expect(await psql(db, 'show plan_cache_mode')).toBe('force_custom_plan');
      // And once more on the complete database: nothing to do, still success.
      expect(await once()).toBe('ok');
    } finally {
      await psql('postgres', `drop database if exists "${db}"`);
    }
  });
});
