import type { StudyCell } from "../study-design.js";
import { scheduledBlock } from "../study-schedule.js";
import { type AdaptiveStopping, rejectionThreshold } from "./adaptive-design.js";
import { InvarianceEProcess } from "./invariance-e-process.js";

/** One assigned trial of a player, as the record holds it. */
export interface AssignedTrial {
  readonly trial_index: number;
  readonly finished: boolean;
  /** The trial's first decided choice (round 1), null while undecided or when no valid choice was made. */
  readonly action: string | null;
}

/** Where a (player, game) stands under its adaptive rule. */
export interface GameStopping {
  readonly game: string;
  /** Complete blocks of the game so far (every one of its cells finished in each). */
  readonly complete_blocks: number;
  /** The last look: after how many complete blocks, and its e-value. Null before the first look. */
  readonly last_look: { readonly block: number; readonly e_value: number } | null;
  /** Set once the rule fired: at the look after `block` complete blocks, with e_value ≥ threshold. */
  readonly stopped: {
    readonly block: number;
    readonly e_value: number;
    readonly threshold: number;
    /** Blocks of the game that were already under way at the stop and are completed to stay balanced. */
    readonly blocks_played: number;
    readonly reason: string;
  } | null;
}

/**
 * How far a game's looks have gone: the blocks consumed, the e-process over them, and the stop if it
 * fired. Blocks it consumed were complete — every trial finished — so they never change, and a caller
 * that keeps this between assignments (per record, study, player and game) resumes instead of redoing
 * every look.
 */
export interface LookMemo {
  block: number;
  process: InvarianceEProcess | null;
  lastLook: GameStopping["last_look"];
  fired: { block: number; e_value: number } | null;
}

/** What a caller may keep between assignments of one player: the looks by game, the blocks' cell orders. */
export interface ScheduleMemo {
  readonly looks: Map<string, LookMemo>;
  readonly blockOrders: Map<number, StudyCell[]>;
}

export function emptyScheduleMemo(): ScheduleMemo {
  return { looks: new Map(), blockOrders: new Map() };
}

/** A player's schedule under adaptive stopping: every game's state and the next trial index to assign. */
export interface AdaptiveSchedule {
  readonly games: readonly GameStopping[];
  /** The next index of the schedule to assign (stopped games' unstarted blocks skipped); total = done. */
  readonly next_index: number;
}

/**
 * The looks of every game of a player's schedule. A block of the schedule holds every cell once, so a
 * game's trials in blocks 0 … b−1 hold every framing equally often: the rule looks only at complete
 * blocks (after every `look_every_blocks`-th, from `min_blocks` on), and once it fires the game gets no
 * trial in a block it has not started — the blocks already under way (trials in flight under
 * concurrency) are finished, so the game's record stays balanced across framings.
 *
 * Everything is a function of the record (the rule re-reads it on every assignment): the same record
 * always gives the same stops, and a stop never moves, because the blocks it looked at are complete.
 */
export function adaptiveSchedule(
  adaptive: AdaptiveStopping,
  cells: readonly StudyCell[],
  seed: string,
  player: string,
  trials: readonly AssignedTrial[],
  total: number,
  actionsOf: (game: string) => readonly string[],
  /** Looks already done and block orders drawn (filled in as they advance); a fresh one redoes them all. */
  memo: ScheduleMemo = emptyScheduleMemo(),
): AdaptiveSchedule {
  const perBlock = cells.length;
  const blockCells = memo.blockOrders;
  const cellAt = (index: number): StudyCell => {
    const block = Math.floor(index / perBlock);
    let order = blockCells.get(block);
    if (!order) {
      order = scheduledBlock(cells, seed, player, block);
      blockCells.set(block, order);
    }
    return order[index % perBlock] as StudyCell;
  };
  const games = [...new Set(cells.map((c) => c.game))];
  const cellsPerGame = new Map(games.map((g) => [g, cells.filter((c) => c.game === g).length]));
  const started = new Map(games.map((g) => [g, new Set<number>()]));
  const byGameBlock = new Map<string, Map<number, AssignedTrial[]>>(games.map((g) => [g, new Map()]));
  let nextIndex = 0;
  for (const trial of trials) {
    const game = cellAt(trial.trial_index).game;
    const block = Math.floor(trial.trial_index / perBlock);
    started.get(game)?.add(block);
    const blocks = byGameBlock.get(game) as Map<number, AssignedTrial[]>;
    const inBlock = blocks.get(block);
    if (inBlock) inBlock.push(trial);
    else blocks.set(block, [trial]);
    nextIndex = Math.max(nextIndex, trial.trial_index + 1);
  }
  const states = games.map((game) => {
    let looks = memo.looks.get(game);
    if (!looks) {
      looks = { block: 0, process: null, lastLook: null, fired: null };
      memo.looks.set(game, looks);
    }
    return gameLooks(
      adaptive,
      game,
      cellsPerGame.get(game) as number,
      byGameBlock.get(game) as Map<number, AssignedTrial[]>,
      cellAt,
      actionsOf(game),
      looks,
    );
  });
  const stoppedAt = new Set(states.filter((s) => s.stopped).map((s) => s.game));
  // Skip the indices of stopped games in blocks they have not started.
  while (nextIndex < total) {
    const game = cellAt(nextIndex).game;
    if (!stoppedAt.has(game) || started.get(game)?.has(Math.floor(nextIndex / perBlock))) break;
    nextIndex++;
  }
  return { games: states, next_index: nextIndex };
}

/** The stratum a cell's choices are compared within: its variant, style and opponent (framing aside). */
const strata = new WeakMap<StudyCell, string>();
function stratumOf(cell: StudyCell): string {
  let key = strata.get(cell);
  if (key === undefined) {
    key = JSON.stringify([cell.variant, cell.style, cell.opponent]);
    strata.set(cell, key);
  }
  return key;
}

function gameLooks(
  adaptive: AdaptiveStopping,
  game: string,
  cellsPerBlock: number,
  blocks: Map<number, AssignedTrial[]>,
  cellAt: (index: number) => StudyCell,
  actions: readonly string[],
  looks: LookMemo,
): GameStopping {
  const threshold = rejectionThreshold(adaptive);
  looks.process ??= new InvarianceEProcess(actions.length);
  while (looks.fired === null) {
    const trials = blocks.get(looks.block) ?? [];
    if (trials.length < cellsPerBlock || trials.some((t) => !t.finished)) break;
    for (const trial of trials) {
      if (trial.action === null) continue;
      const action = actions.indexOf(trial.action);
      if (action < 0) continue;
      const cell = cellAt(trial.trial_index);
      looks.process.add(stratumOf(cell), cell.framing, action);
    }
    const block = ++looks.block;
    if (block < adaptive.min_blocks || block % adaptive.look_every_blocks !== 0) continue;
    const eValue = looks.process.eValue();
    looks.lastLook = { block, e_value: eValue };
    if (eValue >= threshold) looks.fired = { block, e_value: eValue };
  }
  if (looks.fired === null) {
    return { game, complete_blocks: looks.block, last_look: looks.lastLook, stopped: null };
  }
  const { block, e_value } = looks.fired;
  return {
    game,
    complete_blocks: block,
    last_look: looks.lastLook,
    stopped: {
      block,
      e_value,
      threshold,
      blocks_played: Math.max(block, ...[...blocks.keys()].map((b) => b + 1)),
      reason: `invariance rejected after block ${block} (e = ${e_value.toFixed(1)} ≥ ${Number(threshold.toPrecision(4))})`,
    },
  };
}
