import { byText } from "../../domain/text-order.js";
import type { ActionId } from "../../domain/types.js";
import { MIN_RESAMPLED_SESSIONS } from "../robustness/robustness-plan.js";
import { createMultinomialSampler, type MultinomialSampler } from "../sampling/multinomial-sampler.js";
import { type ComparisonRow, cellKey, type GroupTallies } from "./comparison-rows.js";

/** One (game, framing) cell of one group: its observed counts over the game's actions. */
export interface GroupCell {
  readonly game: string;
  readonly framing: string;
  /** Counts in the order of the game's actions. */
  readonly counts: Int32Array;
  readonly n: number;
  /** Every decision made one action: the plain bootstrap of such a cell never varies (see below). */
  readonly degenerate: boolean;
  /** The schedule positions (sorted, one decision each) when every decision of the cell has one. */
  readonly positions: readonly string[] | null;
}

/** A unit drawn whole: its decisions as (cell, action index, count) entries. */
type Unit = readonly { readonly cell: number; readonly action: number; readonly count: number }[];

/**
 * One independent block of the group's resampling: its units are drawn with replacement, as many as
 * it holds, from a stream of its own. `stream` names that stream: two groups whose blocks share a name
 * (the same schedule positions of one cell) draw the same positions in every replicate: paired.
 */
export type Stratum =
  | {
      readonly kind: "decisions";
      readonly cell: number;
      readonly sampler: MultinomialSampler;
      readonly stream: string;
    }
  | {
      readonly kind: "units";
      readonly cells: readonly number[];
      readonly units: readonly Unit[];
      readonly stream: string;
    };

export type ComparisonUnit = "decision" | "session" | "trial";

export interface GroupSample {
  readonly group: string;
  readonly cells: readonly GroupCell[];
  readonly cellIndex: ReadonlyMap<string, number>;
  readonly strata: readonly Stratum[];
  /** What was resampled: decisions (imported counts), sessions, or schedule positions (trials). */
  readonly unit: ComparisonUnit;
  /** The smoothed multinomial of each degenerate cell, drawn at the replicate's cell size. */
  readonly smoothing: ReadonlyMap<number, (n: number) => MultinomialSampler>;
  readonly decisions: number;
  /**
   * The cells a session that made several decisions decided in but that are drawn by decision (or by
   * schedule position), because fewer than MIN_RESAMPLED_SESSIONS sessions decided in them: their
   * decisions are redrawn as if independent, whatever their correlation within the session.
   */
  readonly sessionCellsByDecision: readonly number[];
}

/**
 * A cell where every decision made the same action is resampled from the add-½ (Jeffreys) smoothed
 * distribution (x + ½)/(n + k/2) rather than from itself: its plain bootstrap is a single point, so two
 * deterministic groups would get the difference interval [0, 0], which claims a certainty n decisions
 * cannot give. Cells with any variation are resampled as observed.
 */
export function smoothed(counts: Int32Array, n: number): number[] {
  const k = counts.length;
  return Array.from(counts, (x) => (x + 0.5) / (n + k / 2));
}

/**
 * The resampling plan of one group over the cells it played (games' actions in catalog order):
 * - a group with a unit (session) that made several decisions resamples those units, across its cells when
 *   some unit spans cells (one block), else within each cell;
 * - otherwise each cell is drawn alone: by schedule position when every decision of it has one (so groups
 *   that played the same positions are paired), else as a Multinomial of its decisions.
 */
export function groupSample(
  group: string,
  rows: readonly ComparisonRow[],
  actionsOf: (game: string) => readonly ActionId[],
): GroupSample {
  const cellIndex = new Map<string, number>();
  const raw: { game: string; framing: string; counts: Int32Array; positions: Map<string, number> | null }[] =
    [];
  // unit → its entries as (cell, action, count) triples, in the order first seen.
  const units = new Map<string, number[]>();
  const loose: { cell: number; action: number; count: number }[] = []; // decisions without a unit
  for (const row of rows) {
    if (row.count <= 0) continue;
    const actions = actionsOf(row.game);
    const a = actions.indexOf(row.action);
    if (a < 0) {
      throw new Error(
        `Action '${row.action}' of group '${group}' is not an action of game '${row.game}' (${actions.join(", ")}).`,
      );
    }
    const key = cellKey(row.game, row.framing);
    let c = cellIndex.get(key);
    if (c === undefined) {
      c = raw.length;
      cellIndex.set(key, c);
      raw.push({
        game: row.game,
        framing: row.framing,
        counts: new Int32Array(actions.length),
        positions: new Map(),
      });
    }
    const cell = raw[c] as (typeof raw)[number];
    cell.counts[a] = (cell.counts[a] as number) + row.count;
    if (row.position === null || row.count !== 1 || cell.positions?.has(row.position)) cell.positions = null;
    else cell.positions?.set(row.position, a);
    if (row.unit !== null) {
      const entries = units.get(row.unit);
      if (entries === undefined) units.set(row.unit, [c, a, row.count]);
      else addEntry(entries, c, a, row.count);
    } else {
      cell.positions = null;
      loose.push({ cell: c, action: a, count: row.count });
    }
  }
  return sampleOf(group, raw, [...units.values()], loose, rows, actionsOf);
}

/**
 * `groupSample` of one group's tallies: the same sample as from its rows (the units' order aside, which
 * no draw sees: units are listed by content).
 */
export function groupSampleOfTallies(
  tallies: GroupTallies,
  actionsOf: (game: string) => readonly ActionId[],
): GroupSample {
  const { group, cells, actions, unitStarts, entryCell, entryAction, entryCount, looseFrom } = tallies;
  // Each (cell, action) of the tallies as the game's action index, checked in the rows' order (cell, then
  // action text), so a bad action is named as the rows would name it.
  const actionIndex = new Int32Array(cells.length * actions.length).fill(-1);
  const seen = new Uint8Array(cells.length * actions.length);
  for (let e = 0; e < entryCell.length; e++)
    seen[(entryCell[e] as number) * actions.length + (entryAction[e] as number)] = 1;
  const byText = actions
    .map((_, i) => i)
    .sort((i, j) => ((actions[i] as string) < (actions[j] as string) ? -1 : 1));
  const raw = cells.map(({ game, framing }, c) => {
    const gameActions = actionsOf(game);
    for (const i of byText) {
      if (seen[c * actions.length + i] === 0) continue;
      const action = actions[i] as string;
      const a = gameActions.indexOf(action);
      if (a < 0) {
        throw new Error(
          `Action '${action}' of group '${group}' is not an action of game '${game}' (${gameActions.join(", ")}).`,
        );
      }
      actionIndex[c * actions.length + i] = a;
    }
    return { game, framing, counts: new Int32Array(gameActions.length), positions: null };
  });
  const units: number[][] = [];
  const loose: { cell: number; action: number; count: number }[] = [];
  const entries = entryCell.length;
  for (let e = 0; e < entries; e++) {
    const c = entryCell[e] as number;
    const a = actionIndex[c * actions.length + (entryAction[e] as number)] as number;
    const counts = (raw[c] as (typeof raw)[number]).counts;
    counts[a] = (counts[a] as number) + (entryCount[e] as number);
    if (e >= looseFrom) loose.push({ cell: c, action: a, count: entryCount[e] as number });
  }
  for (let u = 0; u + 1 < unitStarts.length; u++) {
    const unit: number[] = [];
    for (let e = unitStarts[u] as number; e < (unitStarts[u + 1] as number); e++) {
      const c = entryCell[e] as number;
      unit.push(
        c,
        actionIndex[c * actions.length + (entryAction[e] as number)] as number,
        entryCount[e] as number,
      );
    }
    units.push(unit);
  }
  return sampleOf(group, raw, units, loose, [], actionsOf);
}

/**
 * The sample of a group's cells folded from its rows or tallies: `units` are the entries of each unit as
 * (cell, action, count) triples (a few numbers per unit, since a record of a million decisions has
 * hundreds of thousands), `loose` the decisions without a unit.
 */
function sampleOf(
  group: string,
  unordered: readonly {
    game: string;
    framing: string;
    counts: Int32Array;
    positions: Map<string, number> | null;
  }[],
  unitsAsRead: readonly (readonly number[])[],
  looseAsRead: readonly { cell: number; action: number; count: number }[],
  rows: readonly ComparisonRow[],
  actionsOf: (game: string) => readonly ActionId[],
): GroupSample {
  const { raw, units, loose } = inCellOrder(unordered, unitsAsRead, looseAsRead, actionsOf);
  // A cell whose import gave sessions to only some of its decisions: each of the others is a unit of its
  // own (as the robustness analysis draws them), so drawing the cell's units draws all its decisions.
  const cellsWithUnits = new Set<number>();
  for (const entries of units)
    for (let e = 0; e < entries.length; e += 3) cellsWithUnits.add(entries[e] as number);
  for (const { cell, action, count } of loose) {
    if (!cellsWithUnits.has(cell)) continue;
    for (let i = 0; i < count; i++) units.push([cell, action, 1]);
  }
  const cellIndex = new Map(raw.map(({ game, framing }, c) => [cellKey(game, framing), c]));
  const cells: GroupCell[] = raw.map(({ game, framing, counts, positions }) => {
    const n = counts.reduce((s, x) => s + x, 0);
    return {
      game,
      framing,
      counts,
      n,
      degenerate: counts.some((x) => x === n),
      positions: positions === null ? null : [...positions.keys()].sort(),
    };
  });
  const unitOf = (entries: readonly number[]): Unit => {
    const unit: { cell: number; action: number; count: number }[] = [];
    for (let e = 0; e < entries.length; e += 3)
      unit.push({
        cell: entries[e] as number,
        action: entries[e + 1] as number,
        count: entries[e + 2] as number,
      });
    return unit;
  };
  // Sessions are resampled whole only when there are at least two: one session (a host that played every
  // trial in one connection) says nothing about the spread between sessions, and drawing it whole would
  // give every replicate the same counts, an interval that is a point. Its decisions are drawn one by one.
  const clustered = units.length >= 2 && units.some((e) => e.length > 3 || (e[2] as number) > 1);
  // Cells a session of several decisions decided in: the ones not drawn by session below are named.
  const sessionCells = new Set<number>();
  for (const entries of units) {
    let made = 0;
    for (let e = 2; e < entries.length; e += 3) made += entries[e] as number;
    if (made > 1) for (let e = 0; e < entries.length; e += 3) sessionCells.add(entries[e] as number);
  }
  const bySession = new Set<number>();
  const strata: Stratum[] = [];
  let unit: ComparisonUnit = "decision";
  if (clustered) {
    unit = "session";
    const spans = units.some((e) => e.some((_, i) => i % 3 === 0 && e[i] !== e[0]));
    // Units in stable order (by content): unit ids are random, and the draws go by position. Each unit's
    // content is written out once, not in every comparison of the sort.
    const ordered = units
      .map((e) => {
        const unit = unitOf(e);
        return { unit, key: JSON.stringify(unit) };
      })
      .sort((x, y) => (x.key < y.key ? -1 : 1))
      .map((u) => u.unit);
    // Sessions that decided in each cell: a cell of fewer than MIN_RESAMPLED_SESSIONS is drawn by decision,
    // for the reason above, as robustness draws it.
    const reach = cells.map(() => 0);
    for (const u of ordered)
      for (const c of new Set(u.map((e) => e.cell))) reach[c] = (reach[c] as number) + 1;
    const byDecision = new Set(reach.flatMap((r, c) => (r > 0 && r < MIN_RESAMPLED_SESSIONS ? [c] : [])));
    if (spans) {
      // The sessions are drawn jointly over the other cells (without their part in the ones drawn by decision).
      const joint =
        byDecision.size === 0 ? ordered : ordered.map((u) => u.filter((e) => !byDecision.has(e.cell)));
      if (reach.some((r) => r >= MIN_RESAMPLED_SESSIONS)) {
        strata.push({
          kind: "units",
          cells: cells.flatMap((_, i) => (byDecision.has(i) ? [] : [i])),
          units: joint.filter((u) => u.length > 0),
          stream: `${group}:sessions`,
        });
        cells.forEach((_, i) => {
          if (!byDecision.has(i)) bySession.add(i);
        });
      }
    } else {
      cells.forEach((_, c) => {
        if ((reach[c] as number) < MIN_RESAMPLED_SESSIONS) return;
        const own = ordered.filter((u) => u[0]?.cell === c);
        strata.push({ kind: "units", cells: [c], units: own, stream: `${group}:sessions:${c}` });
        bySession.add(c);
      });
    }
    for (const c of byDecision) strata.push(decisionStratum(group, cells[c] as GroupCell, c));
    // Imported cells of a clustered group (decisions without a unit) are still drawn by decision.
    const covered = new Set(ordered.flatMap((u) => u.map((e) => e.cell)));
    cells.forEach((cell, c) => {
      if (!covered.has(c)) strata.push(decisionStratum(group, cell, c));
    });
    // Every cell of one session each: nothing was drawn by session after all.
    if (!strata.some((s) => s.kind === "units")) unit = "decision";
  } else {
    cells.forEach((cell, c) => {
      if (cell.positions === null) {
        strata.push(decisionStratum(group, cell, c));
        return;
      }
      unit = "trial";
      const actions = new Map(
        rows
          .filter((r) => r.game === cell.game && r.framing === cell.framing && r.count > 0)
          .map((r) => [r.position as string, actionsOf(cell.game).indexOf(r.action)]),
      );
      strata.push({
        kind: "units",
        cells: [c],
        units: cell.positions.map((p) => [{ cell: c, action: actions.get(p) as number, count: 1 }]),
        stream: `schedule:${cellKey(cell.game, cell.framing)}:${cell.positions.join("|")}`,
      });
    });
  }
  const smoothing = new Map<number, (n: number) => MultinomialSampler>();
  cells.forEach((cell, c) => {
    if (!cell.degenerate) return;
    const p = smoothed(cell.counts, cell.n);
    const cache = new Map<number, MultinomialSampler>();
    smoothing.set(c, (n) => {
      let sampler = cache.get(n);
      if (sampler === undefined) {
        sampler = createMultinomialSampler(n, p);
        cache.set(n, sampler);
      }
      return sampler;
    });
  });
  const decisions = cells.reduce((s, c) => s + c.n, 0);
  const sessionCellsByDecision = [...sessionCells].filter((c) => !bySession.has(c)).sort((x, y) => x - y);
  return { group, cells, cellIndex, strata, unit, smoothing, decisions, sessionCellsByDecision };
}

/**
 * The group's cells numbered in (game, framing) order, and its units' and loose decisions' entries
 * renumbered to match, each unit's entries in (cell, action text) order. The rows of imported counts arrive
 * session by session, so the cells would otherwise be numbered in the order of the session labels: a unit's
 * content (by which units are ordered and drawn), the order of the strata and the names of their streams
 * would all change when the labels are only renamed.
 */
function inCellOrder<Cell extends { game: string; framing: string }>(
  cells: readonly Cell[],
  units: readonly (readonly number[])[],
  loose: readonly { cell: number; action: number; count: number }[],
  actionsOf: (game: string) => readonly ActionId[],
): { raw: Cell[]; units: number[][]; loose: { cell: number; action: number; count: number }[] } {
  const order = cells.map((_, c) => c);
  order.sort((x, y) => {
    const a = cells[x] as Cell;
    const b = cells[y] as Cell;
    return byText(a.game, b.game) || byText(a.framing, b.framing);
  });
  const renumbered = new Int32Array(cells.length);
  order.forEach((c, sorted) => {
    renumbered[c] = sorted;
  });
  const sorted = order.map((c) => cells[c] as Cell);
  // Within a unit, a cell's actions by their text (the order the store lists them in).
  const actionText = ([c, a]: readonly number[]): string =>
    actionsOf((sorted[c as number] as Cell).game)[a as number] as string;
  const inOrder = units.map((entries) => {
    const triples: [number, number, number][] = [];
    for (let e = 0; e < entries.length; e += 3)
      triples.push([
        renumbered[entries[e] as number] as number,
        entries[e + 1] as number,
        entries[e + 2] as number,
      ]);
    triples.sort((x, y) => x[0] - y[0] || byText(actionText(x), actionText(y)));
    return triples.flat();
  });
  return {
    raw: sorted,
    units: inOrder,
    loose: loose.map((d) => ({ ...d, cell: renumbered[d.cell] as number })),
  };
}

/** Text order by code point (as the store's binary ORDER BY). */

/** Adds `count` decisions of (cell, action) to a unit's triples: to its entry if it has one, else a new one. */
function addEntry(entries: number[], cell: number, action: number, count: number): void {
  for (let e = 0; e < entries.length; e += 3) {
    if (entries[e] === cell && entries[e + 1] === action) {
      entries[e + 2] = (entries[e + 2] as number) + count;
      return;
    }
  }
  entries.push(cell, action, count);
}

function decisionStratum(group: string, cell: GroupCell, c: number): Stratum {
  const p = cell.degenerate ? smoothed(cell.counts, cell.n) : Array.from(cell.counts, (x) => x / cell.n);
  return {
    kind: "decisions",
    cell: c,
    sampler: createMultinomialSampler(cell.n, p),
    stream: `${group}:decisions:${cellKey(cell.game, cell.framing)}`,
  };
}
