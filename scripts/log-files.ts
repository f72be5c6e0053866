// Issue 23: `npm start`'s log files are kept across restarts, never wiped. Each run starts a fresh <process>.log after
// moving the previous run's to <process>.log.1 (.1 to .2, ...; LOG_FILES_KEPT of them are kept, the oldest dropped),
// and a file that grows past LOG_FILE_MAX_BYTES during a run is rotated the same way.
import { closeSync, existsSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';

/** Moves file to file.1, file.1 to file.2, ... keeping `keep` rotated files (the oldest is removed). */
export function rotate(file: string, keep: number): void {
  if (!existsSync(file)) return;
  if (keep <= 0) {
    rmSync(file, { force: true });
    return;
  }
  rmSync(`${file}.${keep}`, { force: true });
  for (let i = keep - 1; i >= 1; i--) if (existsSync(`${file}.${i}`)) renameSync(`${file}.${i}`, `${file}.${i + 1}`);
  renameSync(file, `${file}.1`);
}

/** A log file written synchronously in append mode, rotated when it would pass maxBytes (0: never by size). */
export class RotatingLog {
  private fd: number;
  private size: number;
  readonly file: string;
  private readonly maxBytes: number;
  private readonly keep: number;

  /** `fresh`: the previous run's file is rotated away first (npm start), else writing goes on at its end. */
  constructor(file: string, opts: { maxBytes: number; keep: number; fresh?: boolean }) {
    this.file = file;
    this.maxBytes = opts.maxBytes;
    this.keep = opts.keep;
    if (opts.fresh && existsSync(file) && statSync(file).size > 0) rotate(file, this.keep);
    this.fd = openSync(file, 'a');
    this.size = statSync(file).size;
  }

  write(chunk: string | Uint8Array): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (this.maxBytes > 0 && this.size > 0 && this.size + bytes.length > this.maxBytes) {
      closeSync(this.fd);
      rotate(this.file, this.keep);
      this.fd = openSync(this.file, 'a');
      this.size = 0;
    }
    writeSync(this.fd, bytes);
    this.size += bytes.length;
  }

  close(): void {
    closeSync(this.fd);
  }
}
