// How every process stops: on the first SIGTERM or SIGINT it runs its stop steps in order (stop intake, drain the
// work in flight, close connections, flush telemetry), logs "<name> stopping" and "<name> stopped", and exits 0.
// A step that fails is logged and the next still runs; a second signal does not start them again; a stop that
// hangs past the force-exit timeout exits 1.
import { log as defaultLog } from './log.ts';

/** One step of a process's stop: a name for the logs, and what it does (awaited before the next). */
export type StopStep = readonly [name: string, run: () => unknown];

export interface LifecycleOptions {
  /** The process as the logs name it: "gateway", "worker". */
  name: string;
  /** Added to the "stopping" line: "worker stopping: finishing active jobs". */
  note?: string;
  steps: readonly StopStep[];
  /** After this long the process exits 1 even if a step still waits (default 60 s). */
  forceExitMs?: number;
  signals?: readonly NodeJS.Signals[];
  // For tests: where signals come from, how the process exits, where it logs.
  target?: Pick<NodeJS.EventEmitter, 'once'>;
  exit?: (code: number) => void;
  log?: Pick<typeof defaultLog, 'info' | 'error'>;
}

/** Runs the steps in order; a failing step is logged, the next still runs. */
export async function runStopSteps(name: string, steps: readonly StopStep[], log: LifecycleOptions['log'] = defaultLog): Promise<void> {
  for (const [step, run] of steps) {
    try {
      await run();
    } catch (err) {
      log.error(`${name} stop step failed`, { step, err });
    }
  }
}

/**
 * Installs the process's stop on SIGTERM and SIGINT. Returns `stop(signal)`, which runs the steps once (later calls
 * return the first stop's promise).
 */
export function onShutdown(opts: LifecycleOptions): (signal: string) => Promise<void> {
  const {
    name,
    steps,
    forceExitMs = 60_000,
    signals = ['SIGTERM', 'SIGINT'],
    target = process,
    exit = (code: number) => process.exit(code),
    log = defaultLog,
  } = opts;
  let stopping: Promise<void> | undefined;
  const stop = (signal: string): Promise<void> => {
    stopping ??= (async () => {
      log.info(`${name} stopping${opts.note ? `: ${opts.note}` : ''}`, { signal });
      const force = setTimeout(() => {
        log.error(`${name} did not stop within ${forceExitMs} ms: exiting`, { signal });
        exit(1);
      }, forceExitMs);
      await runStopSteps(name, steps, log);
      clearTimeout(force);
      log.info(`${name} stopped`, { signal });
      exit(0);
    })();
    return stopping;
  };
  for (const signal of signals) target.once(signal, () => void stop(signal));
  return stop;
}

/** Runs `task` every `ms`, never two at once: a pass that outlasts the interval makes the next one wait. */
export function every(ms: number, name: string, task: () => Promise<unknown>, log: NonNullable<LifecycleOptions['log']> = defaultLog): NodeJS.Timeout {
  let running = false;
  return setInterval(() => {
    if (running) return;
    running = true;
    task()
      .catch((err) => log.error(`${name} failed`, { err }))
      .finally(() => {
        running = false;
      });
  }, ms);
}
