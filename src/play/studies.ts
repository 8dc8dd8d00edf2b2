import { randomBytes } from "node:crypto";
import { canonicalAdaptive } from "../domain/adaptive/adaptive-design.js";
import {
  adaptiveSchedule,
  emptyScheduleMemo,
  type GameStopping,
  type ScheduleMemo,
} from "../domain/adaptive/adaptive-stops.js";
import type { AnytimeRInterval } from "../domain/adaptive/r-confidence-sequence.js";
import { splitPresentationId } from "../domain/label-sets.js";
import {
  checkOpponentParams,
  OPPONENT_IDS,
  opponentsFor,
  unknownOpponentMessage,
} from "../domain/opponents/index.js";
import {
  designHash,
  type StudyCatalog,
  type StudyCell,
  type StudyDesign,
  StudyDesignSchema,
  studyCells,
} from "../domain/study-design.js";
import { scheduledActionOrder, scheduledCell } from "../domain/study-schedule.js";
import type { VariantId } from "../domain/types.js";
import type { StudyRecord } from "../store/records.js";
import { UsageError } from "../usage-error.js";
import { type Caller, playerLabel } from "./caller.js";
import { currentRoundView, type RoundView } from "./match-view.js";
import type { PlayDeps } from "./play-deps.js";
import { buildMatch, ensureCallerSession } from "./start-match.js";
import { UnknownStudyError } from "./unknown-study-error.js";

export interface RegisteredStudy {
  study_id: string;
  design_hash: string;
  name: string;
  cells: number;
  trials_per_player: number;
  /** False when an identical design was registered before: its study is returned unchanged. */
  created: boolean;
}

/** The catalog as a study design sees it. */
export function studyCatalog(deps: Pick<PlayDeps, "catalog">): StudyCatalog {
  const { catalog } = deps;
  return {
    variantsOf: (game) => Object.keys(catalog.game(game).variants) as VariantId[],
    framingIdsFor: (game, variant) => catalog.framingsFor(game, variant).map((f) => f.id),
    checkOpponent: (opponent, gameId, params) => {
      const game = catalog.game(gameId);
      const fits = opponentsFor({
        stage: catalog.stageGame(gameId, "base"),
        cooperativeAction: game.cooperativeAction,
      });
      if (!OPPONENT_IDS.includes(opponent)) throw new UsageError(unknownOpponentMessage(opponent));
      if (!fits.some((o) => o.id === opponent)) {
        throw new UsageError(
          `Opponent "${opponent}" cannot play ${gameId}; valid: ${fits.map((o) => o.id).join(", ")}.`,
        );
      }
      checkOpponentParams(opponent, params);
    },
  };
}

/** The frozen design of a stored study and its expanded cells, if `deps.store` may see the study. */
export function loadStudy(
  deps: PlayDeps,
  studyId: string,
): { study: StudyRecord; design: StudyDesign; cells: StudyCell[] } {
  const study = deps.store.getStudy(studyId);
  if (!study) throw new UnknownStudyError(studyId);
  const design = StudyDesignSchema.parse(JSON.parse(study.design_json));
  // A stored design was checked when registered, so a game or framing the catalog lacks now means the
  // record was played with another catalog: said by its id, not as a framing that "applies to none".
  for (const game of design.games) deps.catalog.game(game);
  for (const framing of design.framings) deps.catalog.framing(splitPresentationId(framing).framing);
  return { study, design, cells: studyCells(design, studyCatalog(deps)) };
}

/**
 * `register_study`: validates a design against the catalog, freezes it with its SHA-256 hash and returns
 * its id. Registering an identical design again returns the existing study, so a retried call is harmless.
 */
export function registerStudy(deps: PlayDeps, input: unknown, principal = "local"): RegisteredStudy {
  const { design, cells } = checkedDesign(deps, input);
  const hash = designHash(design);
  return deps.store.transaction(() => {
    const visible = deps.store.scopedTo(principal);
    const existing = earlierHashes(input, design)
      .map((earlier) => visible.findStudyByHash(earlier))
      .find((study) => study !== undefined);
    const study = existing ?? {
      id: `study-${randomBytes(6).toString("hex")}`,
      name: design.name,
      design_json: JSON.stringify(design),
      design_hash: hash,
      seed: String(design.seed),
      created_at: deps.store.nowIso(),
      principal,
    };
    if (!existing) deps.store.insertStudy(study);
    return {
      study_id: study.id,
      design_hash: study.design_hash,
      name: study.name,
      cells: cells.length,
      trials_per_player: cells.length * design.trials_per_cell,
      created: !existing,
    };
  });
}

/**
 * The hashes a study of this design may have been registered under, in the order they are looked up. Until
 * the default adaptive.test was left out of the frozen design, a design that spelt it out hashed apart from
 * one that did not: the hash of the design as written comes first (a record holding both studies keeps
 * handing this file the one its trials went to), then the canonical hash, then that of the default spelt
 * out (the earlier study of a file that named it, found from one that does not).
 */
function earlierHashes(input: unknown, design: StudyDesign): string[] {
  const hashes = [designHash(StudyDesignSchema.parse(input)), designHash(design)];
  if (design.adaptive && design.adaptive.test === undefined) {
    hashes.push(designHash({ ...design, adaptive: { ...design.adaptive, test: "universal_inference" } }));
  }
  return [...new Set(hashes)];
}

/**
 * A design as `register_study` takes it, checked against the schema and the catalog alone (no record), with
 * its cells; throws naming what is wrong. `study register` asks before it opens (or creates) a record.
 */
export function checkedDesign(
  deps: Pick<PlayDeps, "catalog">,
  input: unknown,
): { design: StudyDesign; cells: StudyCell[] } {
  const parsed = StudyDesignSchema.parse(input);
  refuseRepeats(parsed);
  // As written: a test named under a rule it has no effect on is refused, the default one included.
  const cells = studyCells(parsed, studyCatalog(deps));
  refuseUnplayableOpponents(deps, cells);
  const design = parsed.adaptive ? { ...parsed, adaptive: canonicalAdaptive(parsed.adaptive) } : parsed;
  return { design, cells };
}

/**
 * An opponent whose params do not fit a cell's game (a cycle naming a label, probabilities summing to 0.4)
 * would fail at the first move of every trial of that cell, and next_trial would hand the same dead trial
 * back forever. Checked when a design is registered only: a stored design is read as it was frozen, so a
 * record holding such a study still opens.
 */
function refuseUnplayableOpponents(
  deps: Pick<PlayDeps, "catalog">,
  cells: readonly Pick<StudyCell, "game" | "variant" | "opponent">[],
): void {
  const checked = new Set<string>();
  for (const cell of cells) {
    const key = JSON.stringify([cell.game, cell.variant, cell.opponent]);
    if (checked.has(key)) continue;
    checked.add(key);
    const game = deps.catalog.game(cell.game);
    try {
      checkOpponentParams(cell.opponent.id, cell.opponent.params, {
        stage: deps.catalog.stageGame(cell.game, cell.variant),
        cooperativeAction: game.cooperativeAction,
      });
    } catch (error) {
      throw new UsageError(`${cell.game}: ${(error as Error).message}`);
    }
  }
}

/**
 * A list of the design named twice would put its cells in the schedule twice (business, business,
 * friend-sharing: two business cells, 4 trials to 2) and the design check would then fail against the
 * decisions; a planned contrast named twice leaves unclear in which games it was planned. Checked when a
 * design is registered only: a stored design is read as it was frozen.
 */
function refuseRepeats(design: StudyDesign): void {
  const lists: [string, readonly string[]][] = [
    ["games", design.games],
    ["variants", design.variants],
    ["framings", design.framings],
    ["labels", design.labels ?? []],
    ["styles", design.styles],
    ["opponents", design.opponents.map((o) => JSON.stringify(o))],
  ];
  for (const [field, values] of lists) {
    const repeated = values.find((value, i) => values.indexOf(value) !== i);
    if (repeated !== undefined) {
      throw new UsageError(
        `${field} names ${repeated.startsWith("{") ? repeated : `"${repeated}"`} twice; list each once.`,
      );
    }
  }
  // One pair planned twice (for the same games or others) says nothing one entry listing its games cannot.
  const pairs = design.planned_contrasts.map((c) => `${c.baseline} → ${c.comparison}`);
  const repeatedPair = pairs.find((pair, i) => pairs.indexOf(pair) !== i);
  if (repeatedPair !== undefined) {
    throw new UsageError(
      `planned_contrasts names ${repeatedPair} twice; list each pair once, with every game it is planned in (or none for all).`,
    );
  }
}

/**
 * A study registered before its opponents' params were checked against its games can hold one that fails
 * at every first move; such a trial (the one resumed, or the one about to be dealt) is refused rather than
 * handed out dead. Only that trial's cell is checked: next_trial runs once per trial. The answer goes to
 * the player, so it names neither the game nor the opponent: the operator sees those on registering again.
 */
function refuseDeadTrial(
  deps: PlayDeps,
  studyId: string,
  cell: Pick<StudyCell, "game" | "variant" | "opponent">,
): void {
  try {
    refuseUnplayableOpponents(deps, [cell]);
  } catch {
    throw new UsageError(
      `Study ${studyId} cannot be played as registered: an opponent in its design could never make a move. Tell the study's operator, who registers a corrected design.`,
    );
  }
}

/** A game that adaptive stopping ended early for the player, as next_trial and `study show` say it. */
export interface StoppedEarly {
  game: string;
  /** The look that fired: after this many complete blocks of the game. */
  block: number;
  e_value: number;
  threshold: number;
  /** R's anytime-valid interval at the stop (the fixed-n interval is not valid after a stop). */
  r_interval: AnytimeRInterval;
  /** Blocks the game was played in: the stop block plus those already under way, finished for balance. */
  blocks_played: number;
  reason: string;
}

/**
 * Under adaptive stopping, what the player will play as things stand: `trials_planned` = the schedule's
 * size less the positions the stops removed, and `skipped_before` = those removed before the next new
 * trial's index (so a new trial_index − skipped_before trials were assigned before it). Fixed design:
 * the size and 0.
 */
interface PlannedTrials {
  trials_planned: number;
  skipped_before: number;
  /** Trials the player has finished, as the answer is given (a client's "N of M done"). */
  trials_finished?: number;
}

export type NextTrial =
  | ({
      complete: false;
      trial_index: number;
      trials_per_player: number;
      resumed: boolean;
      view: RoundView;
    } & PlannedTrials)
  | ({ complete: true; trials_per_player: number; stopped_early: StoppedEarly[] } & PlannedTrials)
  | ({
      complete: false;
      /** Nothing left to deal, but these unfinished trials are held by the connection (`concurrent`). */
      held_open: HeldTrial[];
      trials_per_player: number;
      stopped_early: StoppedEarly[];
    } & PlannedTrials);

export interface HeldTrial {
  readonly match_id: string;
  readonly trial_index: number;
}

// Looks over complete blocks and finished trials never change, so they are kept per record (its store)
// and player: an assignment then reads only the trials from the memo's frontier on and looks only at
// blocks completed since the last one.
const looksByStore = new WeakMap<object, Map<string, ScheduleMemo>>();
function lookMemo(store: object, key: string): ScheduleMemo {
  let byPlayer = looksByStore.get(store);
  if (!byPlayer) {
    byPlayer = new Map();
    looksByStore.set(store, byPlayer);
  }
  let memo = byPlayer.get(key);
  if (!memo) {
    memo = emptyScheduleMemo();
    byPlayer.set(key, memo);
  }
  return memo;
}

/** Where the player stands in the schedule: the next index to assign and the games stopped early. */
export function schedulePosition(
  deps: PlayDeps,
  study: StudyRecord,
  design: StudyDesign,
  cells: readonly StudyCell[],
  player: string,
  principal: string,
): { next_index: number; stopped_early: StoppedEarly[]; games: GameStopping[] } & PlannedTrials {
  const total = cells.length * design.trials_per_cell;
  if (!design.adaptive) {
    return {
      next_index: deps.store.countStudyTrials(study.id, player, principal),
      stopped_early: [],
      games: [],
      trials_planned: total,
      skipped_before: 0,
    };
  }
  const memo = lookMemo(deps.store, `${study.id}\u0000${study.design_hash}\u0000${player}\u0000${principal}`);
  const schedule = adaptiveSchedule(
    design.adaptive,
    cells,
    study.seed,
    player,
    // Only the trials the memo has not absorbed (all finished below its frontier): the read stays small.
    deps.store.studyTrialOutcomes(study.id, player, principal, memo.frontier),
    total,
    (game) => deps.catalog.game(game).actions,
    memo,
  );
  const stopped_early = schedule.games.flatMap((g) => (g.stopped ? [{ game: g.game, ...g.stopped }] : []));
  return {
    next_index: schedule.next_index,
    stopped_early,
    games: [...schedule.games],
    trials_planned: total - schedule.skipped,
    skipped_before: schedule.skipped_before,
  };
}

/**
 * `next_trial`: the player's unfinished trial of the study if there is one, else the next cell of its
 * permuted-block schedule. Trials are counted per principal: another token using the same player label
 * has its own schedule and never meets these matches. A client playing several trials at once passes
 * the ones it holds as `held`, so each concurrent call gets a trial of its own. Count and insert happen in one IMMEDIATE transaction, so two processes can't
 * hand out the same trial.
 */
export function nextTrial(
  deps: PlayDeps,
  caller: Caller,
  studyId: string,
  requestedPlayer?: string,
  held: readonly string[] = [],
): NextTrial {
  // Another principal's study does not exist for this caller.
  const visible = { ...deps, store: deps.store.scopedTo(caller.principal) };
  const { study, design, cells } = loadStudy(visible, studyId);
  const player = playerLabel(caller, requestedPlayer);
  const total = cells.length * design.trials_per_cell;
  ensureCallerSession(deps, caller, player);
  return deps.store.transaction(() => {
    const open = deps.store.openStudyMatch(study.id, player, caller.principal, held);
    const position = schedulePosition(deps, study, design, cells, player, caller.principal);
    const planned = {
      trials_planned: position.trials_planned,
      skipped_before: position.skipped_before,
      trials_finished: deps.store.countFinishedStudyTrials(study.id, player, caller.principal),
    };
    if (open) {
      refuseDeadTrial(deps, studyId, {
        game: open.game,
        variant: open.variant as VariantId,
        opponent: { id: open.opponent, params: open.opponent_params },
      });
      const view = currentRoundView(deps, open);
      return {
        complete: false,
        trial_index: open.trial_index ?? 0,
        trials_per_player: total,
        resumed: true,
        view,
        ...planned,
      };
    }
    const index = position.next_index;
    if (index >= total) {
      // Everything is dealt; when this connection still holds some of the player's trials unfinished,
      // the study is not done: those are to be finished first.
      const held_open = heldOpenTrials(deps, study.id, player, caller.principal, held);
      if (held_open.length > 0) {
        return {
          complete: false,
          held_open,
          trials_per_player: total,
          stopped_early: position.stopped_early,
          ...planned,
        };
      }
      return {
        complete: true,
        trials_per_player: total,
        stopped_early: position.stopped_early,
        ...planned,
      };
    }
    const cell = scheduledCell(cells, study.seed, player, index);
    refuseDeadTrial(deps, studyId, cell);
    const actions = deps.catalog.game(cell.game).actions;
    const cellKey = JSON.stringify(cell);
    const match = buildMatch(deps, caller, player, {
      ...cell,
      action_order: scheduledActionOrder(actions, study.seed, player, cellKey, index, cells.length),
      seed: `${study.seed}:${player}:${index}`,
      history_mode: design.history_mode,
      reveal_horizon: design.reveal_horizon,
      study_id: study.id,
      trial_index: index,
    });
    deps.store.insertMatch(match);
    return {
      complete: false,
      trial_index: index,
      trials_per_player: total,
      resumed: false,
      view: currentRoundView(deps, match, []),
      ...planned,
    };
  });
}

/** The trials among `held` that are the player's unfinished trials of this study, in schedule order. */
function heldOpenTrials(
  deps: PlayDeps,
  studyId: string,
  player: string,
  principal: string,
  held: readonly string[],
): HeldTrial[] {
  const trials: HeldTrial[] = [];
  for (const id of held) {
    const match = deps.store.getMatch(id);
    if (
      match?.study_id === studyId &&
      match.player === player &&
      match.principal === principal &&
      match.status === "open"
    ) {
      trials.push({ match_id: match.id, trial_index: match.trial_index ?? 0 });
    }
  }
  return trials.sort((a, b) => a.trial_index - b.trial_index);
}
