import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RotatingLog, rotate } from './log-files.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const fresh = () => (dir = mkdtempSync(join(tmpdir(), 'logs-')));

describe("npm start's log files", () => {
  it('a restart keeps the previous runs’ logs (.1, .2, ...) and drops only those past LOG_FILES_KEPT', () => {
    const file = join(fresh(), 'gateway.log');
    for (const run of [1, 2, 3, 4]) {
      const log = new RotatingLog(file, { maxBytes: 0, keep: 2, fresh: true });
      log.write(`run ${run}\n`);
      log.close();
    }
    expect(readFileSync(file, 'utf8')).toBe('run 4\n');
    expect(readFileSync(`${file}.1`, 'utf8')).toBe('run 3\n');
    expect(readFileSync(`${file}.2`, 'utf8')).toBe('run 2\n');
    expect(readdirSync(dir).sort()).toEqual(['gateway.log', 'gateway.log.1', 'gateway.log.2']);
  });

  it('a file growing past LOG_FILE_MAX_BYTES is rotated; nothing written is lost', () => {
    const file = join(fresh(), 'worker.log');
    const log = new RotatingLog(file, { maxBytes: 20, keep: 5 });
    for (let i = 0; i < 10; i++) log.write(`line ${i}\n`);
    log.close();
    const all = ['.5', '.4', '.3', '.2', '.1', '']
      .map((s) => {
        try {
          return readFileSync(file + s, 'utf8');
        } catch {
          return '';
        }
      })
      .join('');
    expect(all).toBe(Array.from({ length: 10 }, (_, i) => `line ${i}\n`).join(''));
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f)).length).toBeLessThanOrEqual(20);
  });

  it('without fresh, writing goes on at the end of the file (a process restarted within a run)', () => {
    const file = join(fresh(), 'x.log');
    writeFileSync(file, 'before\n');
    const log = new RotatingLog(file, { maxBytes: 0, keep: 3 });
    log.write('after\n');
    log.close();
    expect(readFileSync(file, 'utf8')).toBe('before\nafter\n');
    rotate(join(dir, 'missing.log'), 3);
    expect(readdirSync(dir)).toEqual(['x.log']);
  });
});
