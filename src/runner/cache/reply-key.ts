import type { ChatRequest, ModelEndpoint, ModelReply } from "../endpoint.js";
import { cacheKey, MATCH_PLACEHOLDER } from "./response-cache.js";

/** The trial a model call is made for: its match, and the schedule position of the player's trial. */
export interface TrialRef {
  readonly matchId: string;
  readonly player: string;
  /** The trial's index in the player's schedule (next_trial), which is the same in every record. */
  readonly trialIndex: number;
  /** The trial's name in the run's budget, shared by both seats of an agent-vs-agent trial. */
  readonly budgetKey: string;
}

/**
 * The cache key of one call: the provider, base URL, model, decoding settings, the exact request (system
 * message, messages, tools offered) and the sample index — with the match id, drawn afresh in every record,
 * replaced by a placeholder. Unless the temperature is explicitly 0 (the provider's default is not), the
 * player and the trial's schedule position are part of it too, so a cached study replays each trial's own
 * draw instead of handing one draw to every trial that happens to show the same prompt.
 */
export function replyKey(
  endpoint: ModelEndpoint,
  request: ChatRequest,
  sampleIndex: number,
  trial: TrialRef,
): string {
  return cacheKey({
    provider: endpoint.provider,
    url: endpoint.url,
    model: endpoint.model,
    decoding: endpoint.decoding,
    request: withoutMatchId(request, trial.matchId),
    sample_index: sampleIndex,
    trial: endpoint.decoding.temperature === 0 ? null : { player: trial.player, index: trial.trialIndex },
  });
}

/** A value with every occurrence of the match id replaced by the placeholder. */
export function withoutMatchId<T>(value: T, matchId: string): T {
  return JSON.parse(JSON.stringify(value).split(matchId).join(MATCH_PLACEHOLDER)) as T;
}

/** A cached reply with this trial's match id where the original's stood. */
export function forMatch(reply: ModelReply, matchId: string): ModelReply {
  return JSON.parse(JSON.stringify(reply).split(MATCH_PLACEHOLDER).join(matchId)) as ModelReply;
}
