import { type ProgressListener, progressMessage } from "../analysis/progress/analysis-progress.js";

/** Redraws at most this often: a terminal line, not a log. */
const REDRAW_MS = 100;

/**
 * How far an analysis verb has got, as one line redrawn in place on stderr — when stderr is a terminal.
 * A pipe or a log file gets nothing (null): scripts read stdout and a clean stderr.
 */
export function analysisProgressLine(
  stream: NodeJS.WriteStream = process.stderr,
): { listener: ProgressListener; done(): void } | null {
  if (!stream.isTTY) return null;
  let last = -Infinity;
  let drawn = false;
  return {
    listener(step) {
      const now = performance.now();
      if (now - last < REDRAW_MS && step.done < step.total) return;
      last = now;
      drawn = true;
      stream.write(`\rsame-game: ${progressMessage(step)}\u001b[K`);
    },
    done() {
      if (drawn) stream.write("\r\u001b[K");
    },
  };
}
