import type { ServerContext } from "@modelcontextprotocol/server";
import { type ProgressStep, progressMessage } from "../../analysis/progress/analysis-progress.js";

/** A client that resets its timeout on progress hears from a live analysis at least this often. */
export const HEARTBEAT_MS = 1000;
/** Steps closer together than this are folded into the next notification. */
const MIN_GAP_MS = 400;

export interface ProgressNotifier {
  readonly onProgress: (step: ProgressStep) => void;
  /** Stops the heartbeat (the analysis answered, failed or was cancelled). */
  stop(): void;
}

/**
 * `notifications/progress` for one tool call that carries a progressToken. The analysis' stages each count
 * from 0, so they are laid end to end: `progress` only grows, as the specification requires, and `total` is
 * the steps of the stages seen so far. A stage without steps for a while (the permutation test waiting on
 * the other core) is covered by a heartbeat each second that repeats the last message with the time spent,
 * its progress a thousandth of a step further, so a client resetting its timeout on progress never times
 * out on a live analysis. Null when the request asked for no progress.
 */
export function progressNotifier(ctx: ServerContext, tool: string): ProgressNotifier | null {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return null;
  const started = performance.now();
  let stage: string | null = null;
  let base = 0;
  let sent = 0;
  let sentAt = -Infinity;
  let latest: { value: number; total: number; message: string } | null = null;
  const send = (value: number, total: number, message: string) => {
    const progress = value > sent ? value : sent + 0.001;
    sent = progress;
    sentAt = performance.now();
    ctx.mcpReq
      .notify({
        method: "notifications/progress",
        params: { progressToken: token, progress, total: Math.max(total, progress), message },
      })
      .catch(() => {
        // The client has gone: its cancellation stops the analysis; nothing to tell.
      });
  };
  const heartbeat = setInterval(() => {
    if (performance.now() - sentAt < HEARTBEAT_MS) return;
    const seconds = Math.round((performance.now() - started) / 1000);
    const last = latest ?? { value: 0, total: 1, message: `${tool}: starting` };
    send(last.value, last.total, `${last.message} (${seconds} s)`);
  }, HEARTBEAT_MS / 4);
  heartbeat.unref();
  return {
    onProgress(step) {
      if (step.stage !== stage) {
        base = Math.ceil(sent);
        stage = step.stage;
      }
      latest = {
        value: base + step.done,
        total: base + step.total,
        message: `${tool}: ${progressMessage(step)}`,
      };
      if (performance.now() - sentAt >= MIN_GAP_MS || step.done === step.total) {
        send(latest.value, latest.total, latest.message);
      }
    },
    stop() {
      clearInterval(heartbeat);
    },
  };
}
