import { constants } from "node:os";

// Ctrl-C (SIGINT) or SIGTERM (a CI job's timeout, a container stopping) stops `same-game run` with a line
// saying what became of it and exit 128 + the signal's number, as a shell reports it. The bin installs the
// first handlers before it loads the run's code (a second or two on a busy machine), so a signal then
// still ends with a line; `run` takes the signals over as its first step. This file imports nothing else
// of ours: the bin loads it before anything else.

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** What a run stopped before it played anything says: nothing to resume, only to start again. */
export const STOPPED_BEFORE_ANY_TRIAL =
  "Stopped before any trial was played; nothing recorded: run the same command to start.";

/** What a shell reports for a process ended by `signal`: 128 + its number (SIGINT 130, SIGTERM 143). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

let beforeRun: ((signal: NodeJS.Signals) => void) | null = null;

/** For the bin, before the run's code is loaded: a signal now exits at once, nothing being recorded yet. */
export function stopOnSignalBeforeRun(): void {
  beforeRun = (signal) => {
    process.stdout.write(`${STOPPED_BEFORE_ANY_TRIAL}\n`);
    process.exit(signalExitCode(signal));
  };
  for (const name of SIGNALS) process.on(name, beforeRun);
}

/** The signals as `run` handles them: the first stops the run (it aborts `interrupt`), a second exits at once. */
export interface RunSignals {
  readonly interrupt: AbortSignal;
  /** The signal that stopped the run, or null while none came. */
  stoppedBy(): NodeJS.Signals | null;
  /** The run is over: a signal from now on has its usual effect. */
  release(): void;
}

/** Takes the signals over from the bin's first handlers (when it installed them). */
export function takeOverSignals(): RunSignals {
  const controller = new AbortController();
  let stoppedBy: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(signalExitCode(signal));
    stoppedBy = signal;
    controller.abort();
  };
  for (const name of SIGNALS) process.on(name, onSignal);
  if (beforeRun) for (const name of SIGNALS) process.off(name, beforeRun);
  beforeRun = null;
  return {
    interrupt: controller.signal,
    stoppedBy: () => stoppedBy,
    release: () => {
      for (const name of SIGNALS) process.off(name, onSignal);
    },
  };
}
