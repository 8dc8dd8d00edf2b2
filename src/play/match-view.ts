import type { Catalog } from "../domain/catalog.js";
import type { Framing } from "../domain/framing.js";
import type { LabelMap } from "../domain/labels.js";
import { renderPrompt } from "../domain/render.js";
import type { HistoryMode } from "../domain/study-design.js";
import type { PromptStyle, VariantId } from "../domain/types.js";
import { printable } from "../queries/format.js";
import type { DecisionRecord, MatchRecord } from "../store/records.js";
import { UsageError } from "../usage-error.js";
import { playerHistory } from "./match-engine.js";
import type { PlayDeps } from "./play-deps.js";

/**
 * What the agent is shown of a match. Deliberately blind: no game, variant or framing id, so nothing in
 * a reply reveals which condition is active (SPEC §3). The full provenance is in the match resource.
 */
export interface RoundView {
  match_id: string;
  round: number;
  /** Total rounds when the agent may know them (one-shot, or a study that reveals the horizon), else null. */
  rounds: number | null;
  prompt: string;
  /** The choices in the framing's words, in the order shown. */
  labels: string[];
}

/** The match as the play tools need it, or a clear error for an id that does not exist. */
export function requireMatch(deps: PlayDeps, matchId: string, principal: string): MatchRecord {
  return playableMatch(deps.store.getMatch(matchId), matchId, principal);
}

/** The match read for `matchId` if this principal may play it, or the same clear error as requireMatch. */
export function playableMatch(
  match: MatchRecord | undefined,
  matchId: string,
  principal: string,
): MatchRecord {
  const found = visibleMatch(match, matchId, principal);
  if (found.source !== null) {
    throw new UsageError(`Match "${matchId}" was imported from ${found.source}; it cannot be played.`);
  }
  return found;
}

/**
 * The match read for `matchId` if this principal may read it — an imported transcript too (list_matches
 * lists them) —, or the same error as a missing match.
 */
export function visibleMatch(
  match: MatchRecord | undefined,
  matchId: string,
  principal: string,
): MatchRecord {
  // A match of another principal answers exactly like a missing one: ids must not be probed.
  if (!match || match.principal !== principal) {
    throw new UsageError(
      `No match with id "${printable(matchId)}" for this client; start one with start_match or next_trial (get_match lists nothing else).`,
    );
  }
  return match;
}

/** Each framing's label maps by action order, made once: the reply reader keeps its work per map object. */
const labelMapsByOrder = new WeakMap<Framing, Map<string, LabelMap>>();

/**
 * The framing's labels keyed by action, in the match's own (counterbalanced) order: a reply is read
 * through them, and a refusal lists the valid labels in the order the prompt showed them, never the
 * catalog's, which would show every agent one fixed order on its second try. One object per (framing,
 * order), so that every move of every match in that order reuses what the reader derived from it.
 */
export function matchLabelMap(framing: Framing, actionOrder: readonly string[]): LabelMap {
  let byOrder = labelMapsByOrder.get(framing);
  if (byOrder === undefined) {
    byOrder = new Map();
    labelMapsByOrder.set(framing, byOrder);
  }
  const key = actionOrder.join(" ");
  let labels = byOrder.get(key);
  if (labels === undefined) {
    labels = Object.fromEntries(actionOrder.map((action) => [action, framing.labels[action] as string]));
    byOrder.set(key, labels);
  }
  return labels;
}

export function surfaceLabels(deps: PlayDeps, match: MatchRecord): string[] {
  const framing = deps.catalog.framing(match.framing, match.game);
  return match.action_order.map((action) => framing.labels[action] as string);
}

/** The prompt of the match's current round, with the history its study setting allows. */
export function currentRoundView(
  deps: PlayDeps,
  match: MatchRecord,
  decisions?: DecisionRecord[],
): RoundView {
  const game = deps.catalog.game(match.game);
  const round = match.next_round;
  const rounds = game.rounds === 1 || match.reveal_horizon ? game.rounds : null;
  // A one-shot prompt is the catalog's text for the match's condition alone (no round, no history).
  if (game.rounds === 1) {
    const prompt = oneShotPrompt(deps, match);
    return { match_id: match.id, round, rounds, prompt, labels: surfaceLabels(deps, match) };
  }
  const past = (decisions ?? deps.store.listDecisions(match.id)).filter((d) => d.round < round);
  const prompt = renderPrompt({
    game,
    variant: deps.catalog.variant(match.game, match.variant as VariantId),
    framing: deps.catalog.framing(match.framing, match.game),
    actionOrder: match.action_order,
    style: match.style as PromptStyle,
    repeated: {
      round,
      horizon: match.reveal_horizon ? "revealed" : "hidden",
      historyMode: match.history_mode as HistoryMode,
      history: playerHistory(past),
    },
  });
  return { match_id: match.id, round, rounds, prompt, labels: surfaceLabels(deps, match) };
}

/**
 * One-shot prompts already rendered from a catalog, by condition (game, variant, framing, style, action
 * order): the text is a pure function of these and the catalog, and each one-shot decision renders it twice
 * (start_match shows it; submit_move renders it again for the decision's prompt hash), some 40 µs a time.
 * A catalog has a bounded number of conditions; the map is emptied if a user catalog ever exceeds the cap.
 */
const oneShotPrompts = new WeakMap<Catalog, Map<string, string>>();
const MAX_REMEMBERED_PROMPTS = 4096;

function oneShotPrompt(deps: PlayDeps, match: MatchRecord): string {
  let prompts = oneShotPrompts.get(deps.catalog);
  if (!prompts) {
    prompts = new Map();
    oneShotPrompts.set(deps.catalog, prompts);
  }
  const key = [match.game, match.variant, match.framing, match.style, ...match.action_order].join("\0");
  let prompt = prompts.get(key);
  if (prompt === undefined) {
    prompt = renderPrompt({
      game: deps.catalog.game(match.game),
      variant: deps.catalog.variant(match.game, match.variant as VariantId),
      framing: deps.catalog.framing(match.framing, match.game),
      actionOrder: match.action_order,
      style: match.style as PromptStyle,
    });
    if (prompts.size >= MAX_REMEMBERED_PROMPTS) prompts.clear();
    prompts.set(key, prompt);
  }
  return prompt;
}

/** One decided round from the player's side, in the framing's words (null = no valid move). */
export interface PlayerRound {
  your_choice: string | null;
  opponent_choice: string | null;
  your_points: number;
  opponent_points: number;
}

export function playerRound(labels: Readonly<Record<string, string>>, decision: DecisionRecord): PlayerRound {
  const label = (action: string | null) => (action === null ? null : (labels[action] ?? action));
  return {
    your_choice: label(decision.action),
    opponent_choice: label(decision.opponent_action),
    your_points: decision.payoff ?? 0,
    opponent_points: decision.opponent_payoff ?? 0,
  };
}
