// The registry of opponents (SPEC §7): what `list_games` shows and the one entry point the engine calls
// for an algorithmic opponent's move.

import { z } from "zod";
import { closestName } from "../known-keys.js";
import type { Rng } from "../rng.js";
import type { ActionId } from "../types.js";
import { bestResponseLast, bestResponseMajority } from "./best-response.js";
import { equilibriumSampler } from "./equilibrium-sampler.js";
import { pattern } from "./pattern.js";
import { random } from "./random.js";
import { grimTrigger, titForTat, winStayLoseShift } from "./reactive.js";
import type { OpponentGame, OpponentHistory, OpponentStrategy } from "./strategy.js";
import { alwaysCooperate, alwaysDefect } from "./unconditional.js";

export type { HistoryRound, OpponentContext, OpponentGame, OpponentHistory } from "./strategy.js";

export interface OpponentEntry {
  readonly id: string;
  readonly description: string;
  /** Validates the `params` the opponent accepts (an empty object when it takes none). */
  readonly params: z.ZodType;
  /** False for `agent`, whose moves come from another MCP client through the engine. */
  readonly algorithmic: boolean;
  applies(game: OpponentGame): boolean;
}

interface RegisteredOpponent extends OpponentEntry {
  /** Throws when params the schema accepts could still never be played in this game. */
  checkFits(params: unknown, game: OpponentGame): void;
  play(params: unknown, game: OpponentGame, history: OpponentHistory, rng: Rng): ActionId;
}

/** Erases a strategy's parameter type behind validation, so one list can hold every strategy. */
function register<P>(strategy: OpponentStrategy<P>): RegisteredOpponent {
  return {
    id: strategy.id,
    description: strategy.description,
    params: strategy.params,
    algorithmic: true,
    applies: strategy.applies,
    checkFits: (params, game) => strategy.checkParams?.(parseParams(strategy, params), game),
    play: (params, game, history, rng) =>
      strategy.move({ ...game, params: parseParams(strategy, params) }, history, rng),
  };
}

const agent: RegisteredOpponent = {
  id: "agent",
  description: "Another MCP client (LLM vs LLM); moves are revealed only after both sides have moved.",
  params: z.object({}).strict(),
  algorithmic: false,
  applies: () => true,
  checkFits: () => {},
  play: () => {
    throw new Error(
      'Opponent "agent" is another MCP client; the match engine relays its moves, not opponentMove.',
    );
  },
};

const REGISTRY: readonly RegisteredOpponent[] = [
  register(alwaysCooperate),
  register(alwaysDefect),
  register(titForTat),
  register(grimTrigger),
  register(winStayLoseShift),
  register(random),
  register(pattern),
  register(equilibriumSampler),
  register(bestResponseLast),
  register(bestResponseMajority),
  agent,
];

/** Every opponent id, `agent` last. */
export const OPPONENT_IDS: readonly string[] = REGISTRY.map((entry) => entry.id);

/**
 * `Unknown opponent "titfortat" (did you mean "tit-for-tat"?); valid opponents: …`: a typo said as one,
 * not as an opponent that cannot play the game.
 */
export function unknownOpponentMessage(id: string): string {
  const near = closestName(id, OPPONENT_IDS);
  return `Unknown opponent "${id}"${near === undefined ? "" : ` (did you mean "${near}"?)`}; valid opponents: ${OPPONENT_IDS.join(", ")}.`;
}

/** The registry, in a fixed order, for listings. */
export function listOpponents(): readonly OpponentEntry[] {
  return REGISTRY.map(({ play: _play, checkFits: _checkFits, ...entry }) => entry);
}

/** The opponents that can play this game. */
export function opponentsFor(game: OpponentGame): readonly OpponentEntry[] {
  return listOpponents().filter((entry) => entry.applies(game));
}

/**
 * The move of algorithmic opponent `id` this round. `game.stage` has the opponent as the row player;
 * `history` holds the past rounds from its perspective; `rng` is a generator derived for this round.
 */
export function opponentMove(
  id: string,
  params: unknown,
  game: OpponentGame,
  history: OpponentHistory,
  rng: Rng,
): ActionId {
  const entry = REGISTRY.find((candidate) => candidate.id === id);
  if (entry === undefined) {
    throw new Error(unknownOpponentMessage(id));
  }
  if (!entry.applies(game)) {
    const valid = opponentsFor(game).map((e) => e.id);
    throw new Error(
      `Opponent "${id}" does not apply to a game with actions ${game.stage.actions.join(", ")}; the ones that do are ${valid.join(", ")}.`,
    );
  }
  return entry.play(params, game, history, rng);
}

/**
 * Refuses at the door what could never be played: unknown keys or out-of-range values of an opponent's
 * `params`, named with the opponent, and — given the game — values that do not fit its actions (a cycle
 * naming a label, probabilities that are no distribution over the actions). start_match and
 * register_study call this with the game before recording anything, so no match dies at its first move.
 */
export function checkOpponentParams(id: string, params: unknown, game?: OpponentGame): void {
  const entry = REGISTRY.find((candidate) => candidate.id === id);
  if (entry === undefined) {
    throw new Error(unknownOpponentMessage(id));
  }
  const parsed = entry.params.safeParse(params ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "params"}: ${issue.message}`,
    );
    throw new Error(
      `Invalid params for opponent "${id}": ${problems.join("; ")} (got ${JSON.stringify(params ?? {})}).`,
    );
  }
  if (game !== undefined) entry.checkFits(params, game);
}

function parseParams<P>(strategy: OpponentStrategy<P>, params: unknown): P {
  const parsed = strategy.params.safeParse(params ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "params"}: ${issue.message}`,
    );
    throw new Error(`Invalid params for opponent "${strategy.id}": ${problems.join("; ")}.`);
  }
  return parsed.data;
}
