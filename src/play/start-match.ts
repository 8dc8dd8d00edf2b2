import {
  checkOpponentParams,
  OPPONENT_IDS,
  opponentsFor,
  unknownOpponentMessage,
} from "../domain/opponents/index.js";
import { createRng, randomIndex, shuffled } from "../domain/rng.js";
import type { HistoryMode, OpponentChoice } from "../domain/study-design.js";
import type { PromptStyle, VariantId } from "../domain/types.js";
import { printable } from "../queries/format.js";
import type { MatchRecord } from "../store/records.js";
import { UsageError } from "../usage-error.js";
import { DEFAULT_FORFEIT_SECONDS } from "./agent-match-rounds.js";
import { type Caller, playerLabel } from "./caller.js";
import { currentRoundView, type RoundView } from "./match-view.js";
import type { PlayDeps } from "./play-deps.js";
import { randomHex, randomUint32 } from "./random-pool.js";

/** Everything that defines one match; `framing` absent = drawn by the match's seeded generator. */
export interface MatchSpec {
  game: string;
  variant: VariantId;
  framing?: string;
  style: PromptStyle;
  opponent: OpponentChoice;
  seed: string;
  history_mode: HistoryMode;
  reveal_horizon: boolean;
  study_id?: string;
  trial_index?: number;
  /** The order the actions are listed in; drawn from the seed when absent (a study balances it per cell). */
  action_order?: readonly string[];
  /** Opponent "agent" only: how long a seat may keep the other waiting before it forfeits the round. */
  forfeit_after_seconds?: number;
}

/** The opponent a match gets when none is named: uniform random play, which no reply can steer. */
export const DEFAULT_OPPONENT = "random";

/** An unguessable match id: 128 random bits. */
export function newMatchId(): string {
  return randomHex(16);
}

/** A fresh seed for an ad-hoc match; stored with the match so its every random choice can be replayed. */
export function newSeed(): string {
  return String(randomUint32());
}

/** Connections whose session row is already in the record (a session is written once, then referenced). */
const savedSessions = new WeakSet<Caller>();

/**
 * Records the caller's session the first time the connection acts, with what its client said about
 * itself. It is written in its own statement, outside the tool's transaction, so a tool call that fails
 * and rolls back cannot leave the memo claiming a row that is not there.
 */
export function ensureCallerSession(deps: PlayDeps, caller: Caller, player: string): void {
  if (savedSessions.has(caller)) return;
  const client = caller.clientInfo();
  deps.store.saveSession({
    id: caller.sessionId,
    player,
    client_name: client?.name ?? null,
    client_version: client?.version ?? null,
    transport: caller.transport,
    principal: caller.principal,
    started_at: deps.store.nowIso(),
  });
  savedSessions.add(caller);
}

/**
 * Validates a spec against the catalog and builds its match record. The seeded generator draws the
 * framing (when not given, among the story-true presentations) and counterbalances the order in which the actions are listed (SPEC §3).
 */
export function buildMatch(deps: PlayDeps, caller: Caller, player: string, spec: MatchSpec): MatchRecord {
  const game = deps.catalog.game(spec.game);
  const variant = deps.catalog.variant(spec.game, spec.variant);
  const presentations = deps.catalog.framingsFor(game.id, variant.id);
  const framings = presentations.map((f) => f.id);
  // A drawn framing is a story in its own words: the textbook or neutral labels only when asked for.
  const drawable = presentations.filter((f) => f.presentation.labels === "story-true").map((f) => f.id);
  const rng = createRng(`${spec.seed}:match`);
  const drawn = drawable[randomIndex(rng, drawable.length)];
  const framing = spec.framing ?? drawn;
  if (framing === undefined || !framings.includes(framing)) {
    throw new UsageError(
      `Framing "${printable(`${spec.framing}`)}" does not present ${game.id} (${variant.id}); valid framings: ${framings.join(", ")}.`,
    );
  }
  const stage = deps.catalog.stageGame(game.id, variant.id);
  const opponentGame = { stage, cooperativeAction: game.cooperativeAction };
  const valid = opponentsFor(opponentGame).map((o) => o.id);
  if (!OPPONENT_IDS.includes(spec.opponent.id))
    throw new UsageError(unknownOpponentMessage(spec.opponent.id));
  if (!valid.includes(spec.opponent.id)) {
    throw new UsageError(
      `Opponent "${spec.opponent.id}" cannot play ${game.id}; valid opponents: ${valid.join(", ")}.`,
    );
  }
  try {
    checkOpponentParams(spec.opponent.id, spec.opponent.params, opponentGame);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const agent = spec.opponent.id === "agent";
  if (agent && variant.columnPayoffs !== null) {
    throw new UsageError(
      `Opponent "agent" needs a symmetric game (each seat is shown the game as its row player); ${game.id} gives the column player other payoffs. Valid opponents: ${valid.filter((id) => id !== "agent").join(", ")}.`,
    );
  }
  if (!agent && spec.forfeit_after_seconds !== undefined) {
    throw new UsageError(
      `forfeit_after_seconds applies only to opponent "agent", not to "${spec.opponent.id}".`,
    );
  }
  // The record's clock, as every replica's: matches are listed and exported in created_at order.
  const now = deps.store.nowIso();
  return {
    id: newMatchId(),
    study_id: spec.study_id ?? null,
    trial_index: spec.trial_index ?? null,
    player,
    session_id: caller.sessionId,
    principal: caller.principal,
    game: game.id,
    variant: variant.id,
    framing,
    style: spec.style,
    action_order: spec.action_order === undefined ? shuffled(rng, game.actions) : [...spec.action_order],
    opponent: spec.opponent.id,
    opponent_params: agent
      ? { forfeit_after_seconds: spec.forfeit_after_seconds ?? DEFAULT_FORFEIT_SECONDS }
      : spec.opponent.params,
    history_mode: spec.history_mode,
    reveal_horizon: spec.reveal_horizon,
    rounds: game.rounds,
    partner_match_id: null,
    seed: spec.seed,
    status: "open",
    next_round: 1,
    source: null,
    created_at: now,
    finished_at: null,
  };
}

/** `start_match`: one ad-hoc match, recorded in one transaction; answers the first round's prompt. */
export function startMatch(
  deps: PlayDeps,
  caller: Caller,
  requestedPlayer: string | undefined,
  spec: MatchSpec,
): RoundView {
  const player = playerLabel(caller, requestedPlayer);
  ensureCallerSession(deps, caller, player);
  return deps.store.transaction(() => {
    const match = buildMatch(deps, caller, player, spec);
    deps.store.insertMatch(match);
    return currentRoundView(deps, match, []);
  });
}
