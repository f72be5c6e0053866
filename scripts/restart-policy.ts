// When `npm start`'s supervisor restarts a process that exited: exponential back-off over the crashes in a row,
// forgotten once the process has run for a healthy stretch, so one crash a day does not wait 30 s forever.

export const HEALTHY_RUN_MS = 60_000;
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;

/** crashesInARow: before this exit; ranMs: how long the process ran this time. */
export function nextRestart(crashesInARow: number, ranMs: number): { crashesInARow: number; delayMs: number } {
  const crashes = ranMs >= HEALTHY_RUN_MS ? 1 : crashesInARow + 1;
  return { crashesInARow: crashes, delayMs: Math.min(FIRST_DELAY_MS * 2 ** (crashes - 1), MAX_DELAY_MS) };
}
