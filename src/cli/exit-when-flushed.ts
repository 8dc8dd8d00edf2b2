/**
 * How long a server whose host closed its stdin waits for stdout and stderr to take what is queued for them
 * before it exits anyway. A host that reads them gets every line within this; one that never reads stderr
 * (a pipe nobody drains) must not keep the server alive: its queued lines are dropped.
 */
export const EXIT_FLUSH_MS = 1000;

/** Ends the process once `streams` hold nothing queued, or after `waitMs` at most. */
export function exitWhenFlushed(
  streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr],
  waitMs: number = EXIT_FLUSH_MS,
): void {
  const flushed = () => streams.every((stream) => stream.writableLength === 0);
  if (flushed()) process.exit(0);
  const check = setInterval(() => {
    if (flushed()) process.exit(0);
  }, 20);
  setTimeout(() => {
    clearInterval(check);
    process.exit(0);
  }, waitMs);
}
