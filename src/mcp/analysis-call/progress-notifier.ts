import type { ServerContext } from "@modelcontextprotocol/server";
import { type ProgressStep, progressMessage } from "../../analysis/progress/analysis-progress.js";

/** A client that resets its timeout on progress hears from a live analysis at least this often. */
export const HEARTBEAT_MS = 1000;
/** Steps closer together than this are folded into the next notification. */
const MIN_GAP_MS = 400;

export interface ProgressNotifier {
  readonly onProgress: (step: ProgressStep) => void;
  /**
   * The listener of one of several jobs that run at once for the call (the report's sections and its
   * leaderboard, on two workers): each keeps its own stages, and the notification adds them up. Its
   * messages start with `label` when one is given (which of the jobs it is).
   */
  lane(name: string, label?: string): (step: ProgressStep) => void;
  /** Stops the heartbeat (the analysis answered, failed or was cancelled). */
  stop(): void;
}

/** One job's stages laid end to end: `base` is where its current stage started. */
interface Lane {
  stage: string | null;
  base: number;
  value: number;
  total: number;
}

/**
 * `notifications/progress` for one tool call that carries a progressToken. The analysis' stages each count
 * from 0, so they are laid end to end: `progress` only grows, as the specification requires, and `total` is
 * the steps of the stages seen so far and one more (the answer). A stage without steps for a while (the
 * permutation test waiting on the other core) is covered by a heartbeat each second that repeats the last
 * message with the time spent, its progress a thousandth of a step further, so a client resetting its
 * timeout on progress never times out on a live analysis. Jobs that run at once (lanes) each lay their own stages end to end and are
 * summed, so one job's stage change never moves the other's steps: interleaved in one sequence, every
 * switch between the report's two workers added the other's steps done again, and progress / total swung
 * between 75% and 99% as they took turns. Null when the request asked for no progress.
 */
export function progressNotifier(ctx: ServerContext, tool: string): ProgressNotifier | null {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return null;
  const started = performance.now();
  const lanes = new Map<string, Lane>();
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
        // One step more than the stages seen so far: the answer itself is the last step. A stage that
        // ends is not the analysis' end (another may follow, which `total` cannot know yet), so a host's
        // bar never reads 100% while the analysis goes on.
        params: { progressToken: token, progress, total: Math.max(total, progress) + 1, message },
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
  const lane = (name: string, label?: string) => (step: ProgressStep) => {
    let own = lanes.get(name);
    if (own === undefined) {
      own = { stage: null, base: 0, value: 0, total: 0 };
      lanes.set(name, own);
    }
    if (step.stage !== own.stage) {
      own.base = Math.ceil(own.value);
      own.stage = step.stage;
    }
    own.value = own.base + step.done;
    own.total = own.base + step.total;
    let value = 0;
    let total = 0;
    for (const each of lanes.values()) {
      value += each.value;
      total += each.total;
    }
    const what = label === undefined ? progressMessage(step) : `${label}: ${progressMessage(step)}`;
    latest = { value, total, message: `${tool}: ${what}` };
    if (performance.now() - sentAt >= MIN_GAP_MS || step.done === step.total) {
      send(latest.value, latest.total, latest.message);
    }
  };
  return {
    onProgress: lane(tool),
    lane,
    stop() {
      clearInterval(heartbeat);
    },
  };
}
