import type { StudyCell } from "../study-design.js";
import { scheduledBlock } from "../study-schedule.js";
import { type AdaptiveStopping, invarianceTestOf, rejectionThreshold } from "./adaptive-design.js";
import { InvarianceEProcess } from "./invariance-e-process.js";
import { type BlockChoice, WithinBlockPermutationEProcess } from "./permutation-e-process.js";
import { type AnytimeRInterval, anytimeRInterval } from "./r-confidence-sequence.js";

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
  /**
   * R's anytime-valid interval over the complete blocks (valid at any of them, whatever the rule did);
   * null before the first complete block.
   */
  readonly r_interval: AnytimeRInterval | null;
  /** Set once the rule fired: at the look after `block` complete blocks, with e_value ≥ threshold. */
  readonly stopped: {
    readonly block: number;
    readonly e_value: number;
    readonly threshold: number;
    /** R's anytime-valid interval at the stop: the one to report (the fixed-n one is not valid here). */
    readonly r_interval: AnytimeRInterval;
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
  process: InvarianceEProcess | WithinBlockPermutationEProcess | null;
  lastLook: GameStopping["last_look"];
  /** R's interval after `block` complete blocks, computed when a rule or a caller first needs it. */
  interval: { block: number; value: AnytimeRInterval } | null;
  fired: { block: number; e_value: number; reason: string } | null;
}

/**
 * What a caller may keep between assignments of one player, so an assignment costs the same at the
 * 13,200th trial as at the 100th: the looks by game, the blocks' cell orders, and every trial below
 * `frontier` — all finished, so fixed for good (a finished trial's first choice never changes, and new
 * trials are only ever assigned above the highest index so far). An assignment then needs the record's
 * trials from `frontier` on only.
 */
export interface ScheduleMemo {
  readonly looks: Map<string, LookMemo>;
  readonly blockOrders: Map<number, StudyCell[]>;
  /** Trials with a lower index are absorbed below; the caller reads the record from here on. */
  frontier: number;
  /** Finished trials below the frontier by game and block, dropped once the game's looks consumed them. */
  readonly finished: Map<string, Map<number, AssignedTrial[]>>;
  /** The highest block each game was assigned a trial in, below the frontier (−1: none). */
  readonly lastStarted: Map<string, number>;
}

export function emptyScheduleMemo(): ScheduleMemo {
  return {
    looks: new Map(),
    blockOrders: new Map(),
    frontier: 0,
    finished: new Map(),
    lastStarted: new Map(),
  };
}

/** A player's schedule under adaptive stopping: every game's state and the next trial index to assign. */
export interface AdaptiveSchedule {
  readonly games: readonly GameStopping[];
  /** The next index of the schedule to assign (stopped games' unstarted blocks skipped); total = done. */
  readonly next_index: number;
  /** Schedule positions the stops removed (stopped games' cells in blocks they had not started)… */
  readonly skipped: number;
  /** …and how many of them lie before next_index: next_index − skipped_before trials were assigned. */
  readonly skipped_before: number;
}

/**
 * The looks of every game of a player's schedule. A block of the schedule holds every cell once, so a
 * game's trials in blocks 0 … b−1 hold every framing equally often: the rule looks only at complete
 * blocks (after every `look_every_blocks`-th, from `min_blocks` on), and once it fires the game gets no
 * trial in a block it has not started — the blocks already under way (trials in flight under
 * concurrency) are finished, so the game's record stays balanced across framings.
 *
 * Everything is a function of the record: the same record always gives the same stops, and a stop never
 * moves, because the blocks it looked at are complete. `trials` are the record's trials from
 * `memo.frontier` on (ones below it are already in the memo and ignored), so with a memo kept between
 * assignments the work per assignment does not grow with the record.
 */
export function adaptiveSchedule(
  adaptive: AdaptiveStopping,
  cells: readonly StudyCell[],
  seed: string,
  player: string,
  trials: readonly AssignedTrial[],
  total: number,
  actionsOf: (game: string) => readonly string[],
  /** Looks already done, block orders drawn and finished trials absorbed; a fresh one redoes them all. */
  memo: ScheduleMemo = emptyScheduleMemo(),
): AdaptiveSchedule {
  const perBlock = cells.length;
  const blockCells = memo.blockOrders;
  const orderOf = (block: number): StudyCell[] => {
    let order = blockCells.get(block);
    if (!order) {
      order = scheduledBlock(cells, seed, player, block);
      blockCells.set(block, order);
    }
    return order;
  };
  const cellAt = (index: number): StudyCell =>
    orderOf(Math.floor(index / perBlock))[index % perBlock] as StudyCell;
  const games = [...new Set(cells.map((c) => c.game))];
  const cellsPerGame = new Map(games.map((g) => [g, cells.filter((c) => c.game === g).length]));
  const framingsOf = new Map(
    games.map((g) => [g, [...new Set(cells.filter((c) => c.game === g).map((c) => c.framing))]]),
  );
  // The trials above the frontier, read afresh: some may still be open.
  const recent = trials.filter((t) => t.trial_index >= memo.frontier);
  // Move the finished ones below the first open trial (or past the last one) under the frontier.
  const firstOpen = recent.reduce((min, t) => (t.finished ? min : Math.min(min, t.trial_index)), Infinity);
  const highest = recent.reduce((max, t) => Math.max(max, t.trial_index), memo.frontier - 1);
  const frontier = Math.min(firstOpen, highest + 1);
  const lastStarted = new Map(games.map((g) => [g, memo.lastStarted.get(g) ?? -1]));
  const byGameBlock = new Map<string, Map<number, AssignedTrial[]>>();
  for (const game of games) {
    let finished = memo.finished.get(game);
    if (!finished) {
      finished = new Map();
      memo.finished.set(game, finished);
    }
    byGameBlock.set(game, new Map([...finished].map(([b, list]) => [b, [...list]])));
  }
  for (const trial of recent) {
    const game = cellAt(trial.trial_index).game;
    const block = Math.floor(trial.trial_index / perBlock);
    lastStarted.set(game, Math.max(lastStarted.get(game) as number, block));
    const into = (blocks: Map<number, AssignedTrial[]>): void => {
      const inBlock = blocks.get(block);
      if (inBlock) inBlock.push(trial);
      else blocks.set(block, [trial]);
    };
    into(byGameBlock.get(game) as Map<number, AssignedTrial[]>);
    if (trial.trial_index < frontier) {
      into(memo.finished.get(game) as Map<number, AssignedTrial[]>);
      memo.lastStarted.set(game, Math.max(memo.lastStarted.get(game) ?? -1, block));
    }
  }
  memo.frontier = Math.max(memo.frontier, frontier);
  const nextIndexFromRecord = Math.max(memo.frontier, highest + 1);
  const states = games.map((game) => {
    let looks = memo.looks.get(game);
    if (!looks) {
      looks = { block: 0, process: null, lastLook: null, interval: null, fired: null };
      memo.looks.set(game, looks);
    }
    const state = gameLooks(
      adaptive,
      game,
      cellsPerGame.get(game) as number,
      framingsOf.get(game) as string[],
      byGameBlock.get(game) as Map<number, AssignedTrial[]>,
      lastStarted.get(game) as number,
      cellAt,
      actionsOf(game),
      looks,
    );
    // Blocks the looks consumed are never read again.
    const finished = memo.finished.get(game) as Map<number, AssignedTrial[]>;
    for (const block of finished.keys()) if (block < looks.block) finished.delete(block);
    return state;
  });
  const stoppedAt = new Set(states.filter((s) => s.stopped).map((s) => s.game));
  // A game's started blocks are 0 … lastStarted: indices are assigned in order, and a game has a cell in
  // every block until it stops.
  const removed = (index: number): boolean => {
    const game = cellAt(index).game;
    return stoppedAt.has(game) && Math.floor(index / perBlock) > (lastStarted.get(game) as number);
  };
  let nextIndex = nextIndexFromRecord;
  // Skip the indices of stopped games in blocks they have not started: a block whose every game is
  // stopped and unstarted is jumped whole, without drawing its order.
  const allStoppedFrom = games.every((g) => stoppedAt.has(g))
    ? Math.max(...games.map((g) => (lastStarted.get(g) as number) + 1))
    : Infinity;
  while (nextIndex < total) {
    if (Math.floor(nextIndex / perBlock) >= allStoppedFrom) {
      nextIndex = total;
      break;
    }
    if (!removed(nextIndex)) break;
    nextIndex++;
  }
  // What the player will play as things stand, for progress: every removed position, before and after,
  // counted per game (its cells in each block it never started) rather than position by position.
  const blocks = Math.ceil(total / perBlock);
  let skipped = 0;
  let skippedBefore = 0;
  const nextBlock = Math.floor(nextIndex / perBlock);
  for (const game of stoppedAt) {
    const firstUnstarted = (lastStarted.get(game) as number) + 1;
    const perGame = cellsPerGame.get(game) as number;
    skipped += Math.max(0, blocks - firstUnstarted) * perGame;
    // Whole blocks before the next index's block, then the positions of its block before it.
    skippedBefore += Math.max(0, Math.min(nextBlock, blocks) - firstUnstarted) * perGame;
    if (nextBlock < blocks && nextBlock >= firstUnstarted) {
      const order = orderOf(nextBlock);
      for (let i = 0; i < nextIndex % perBlock; i++) if (order[i]?.game === game) skippedBefore++;
    }
  }
  return { games: states, next_index: nextIndex, skipped, skipped_before: skippedBefore };
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
  framings: readonly string[],
  blocks: Map<number, AssignedTrial[]>,
  /** The highest block the game was assigned a trial in (−1: none). */
  lastStarted: number,
  cellAt: (index: number) => StudyCell,
  actions: readonly string[],
  looks: LookMemo,
): GameStopping {
  const threshold = rejectionThreshold(adaptive);
  looks.process ??=
    invarianceTestOf(adaptive) === "within_block_permutation"
      ? new WithinBlockPermutationEProcess(actions.length)
      : new InvarianceEProcess(actions.length);
  const process = looks.process;
  // The interval costs pairs × vertices² JSDs: computed at most once per complete block, and only
  // when the width rule looks at it or the caller asks where the game stands.
  const intervalNow = (): AnytimeRInterval => {
    if (looks.interval?.block !== looks.block) {
      const value = anytimeRInterval(
        process.cells(),
        framings,
        actions.length,
        adaptive.alpha,
        cellsPerBlock,
      );
      looks.interval = { block: looks.block, value };
    }
    return looks.interval.value;
  };
  while (looks.fired === null) {
    const trials = blocks.get(looks.block) ?? [];
    if (trials.length < cellsPerBlock || trials.some((t) => !t.finished)) break;
    const choices: BlockChoice[] = [];
    for (const trial of trials) {
      if (trial.action === null) continue;
      const action = actions.indexOf(trial.action);
      if (action < 0) continue;
      const cell = cellAt(trial.trial_index);
      choices.push({ stratum: stratumOf(cell), framing: cell.framing, action });
    }
    process.addBlock(choices);
    const block = ++looks.block;
    if (block < adaptive.min_blocks || block % adaptive.look_every_blocks !== 0) continue;
    const eValue = process.eValue();
    looks.lastLook = { block, e_value: eValue };
    const reason = stopReason(adaptive, block, eValue, intervalNow);
    if (reason) looks.fired = { block, e_value: eValue, reason };
  }
  // After a stop no block is consumed, so this is the interval at the stop.
  const r_interval = looks.block > 0 ? intervalNow() : null;
  if (looks.fired === null || r_interval === null) {
    return { game, complete_blocks: looks.block, last_look: looks.lastLook, r_interval, stopped: null };
  }
  const { block, e_value } = looks.fired;
  // The reason carries the interval to report at the stop, so every place that says why says it too.
  const reason = `${looks.fired.reason}; ${intervalText(r_interval, adaptive.alpha)}`;
  return {
    game,
    complete_blocks: block,
    last_look: looks.lastLook,
    r_interval,
    stopped: {
      block,
      e_value,
      threshold,
      r_interval,
      blocks_played: Math.max(block, lastStarted + 1),
      reason,
    },
  };
}

/** "R in [0.412, 0.987] (anytime-valid 95%)": an interval as the stop reports it. */
export function intervalText(interval: AnytimeRInterval, alpha: number): string {
  const level = Number((100 * (1 - alpha)).toPrecision(4));
  return `R in [${interval.lower.toFixed(3)}, ${interval.upper.toFixed(3)}] (anytime-valid ${level}%)`;
}

/** Why the rule fires at this look, or null: the invariance test rejected, or R is known closely enough. */
function stopReason(
  adaptive: AdaptiveStopping,
  block: number,
  eValue: number,
  interval: () => AnytimeRInterval,
): string | null {
  const threshold = rejectionThreshold(adaptive);
  if (adaptive.rule !== "width" && eValue >= threshold) {
    // Studies of the first test keep their wording; the newer one names itself.
    const by =
      invarianceTestOf(adaptive) === "universal_inference" ? "" : ` by ${invarianceTestOf(adaptive)}`;
    return `invariance rejected${by} after block ${block} (e = ${eValue.toFixed(1)} ≥ ${Number(threshold.toPrecision(4))})`;
  }
  const target = adaptive.width_target;
  if (adaptive.rule !== "invariance" && target !== undefined && interval().width < target) {
    return `R's interval narrower than ${target} after block ${block} (width ${interval().width.toFixed(3)})`;
  }
  return null;
}

/**
 * How a stop reads: a rule that fired before the design's last block stopped the game early; one that
 * fired at the last block stopped nothing (every block was played) and only rejected there.
 */
export function stopWords(
  block: number,
  trialsPerCell: number,
): "stopped early" | "rejected at the last block" {
  return block < trialsPerCell ? "stopped early" : "rejected at the last block";
}
