import { byText } from "../../domain/text-order.js";
import type { ActionId } from "../../domain/types.js";
import { type CountCell, hasSharedSessions, validateCell } from "../count-cells.js";

/** What one bootstrap replicate resamples for a player: single decisions or whole MCP sessions. */
export type ResamplingUnit = "decision" | "session";

/**
 * The fewest sessions a cell's rate is resampled from. The cluster bootstrap estimates a rate's variance
 * from the spread between the sessions that made it; a cell whose decisions all came from one session
 * (a host that played every trial over one connection) shows none, and redrawing its one session gives
 * every replicate the same rate: an interval that is a point. Such a cell is drawn by decision, the only
 * spread its record shows.
 */
export const MIN_RESAMPLED_SESSIONS = 2;

/** One validated cell laid out in the flat counts buffer the bootstrap works on. */
export interface PlannedCell {
  readonly cell: CountCell;
  readonly n: number;
  /** Index of the cell's first action in the counts buffer; the game's actions follow in order. */
  readonly offset: number;
  readonly actions: readonly ActionId[];
  /**
   * How the record clusters the cell's decisions: "session" for every cell of a player some of whose
   * sessions made several decisions (what the invariance test and the interval's design effects read).
   */
  readonly unit: ResamplingUnit;
  /**
   * What the bootstrap redraws the cell by: its sessions where `unit` is "session" and at least
   * MIN_RESAMPLED_SESSIONS decided in it, else its decisions.
   */
  readonly resampled: ResamplingUnit;
}

/** One (player, game): its cells in framing order and where its statistics go. */
export interface PlannedUnit {
  readonly player: string;
  readonly game: string;
  /** Cell index per framing, in `framings` order. */
  readonly cells: readonly number[];
  /** Index of the cooperative action within the game's actions, or −1 when the game has none. */
  readonly cooperativeIndex: number;
  readonly cooperativeAction: ActionId | null;
  /** "session" when the bootstrap redraws some cell of the game by session. */
  readonly unit: ResamplingUnit;
}

export interface PlannedPlayer {
  readonly player: string;
  readonly units: readonly number[];
  /** "session" when the bootstrap redraws some cell of the player by session. */
  readonly unit: ResamplingUnit;
}

export interface RobustnessPlan {
  readonly framings: readonly string[];
  readonly cells: readonly PlannedCell[];
  readonly units: readonly PlannedUnit[];
  readonly players: readonly PlannedPlayer[];
  /** Observed counts of every cell, concatenated. */
  readonly observed: Int32Array;
  readonly decisions: number;
}

/** The sessions with decisions in a cell, each listed cluster counted as the sessions it stands for. */
function sessionCount(cell: CountCell): number {
  let sessions = 0;
  (cell.clusters ?? []).forEach((cluster, i) => {
    if (Object.values(cluster).some((count) => count > 0)) sessions += cell.cluster_weights?.[i] ?? 1;
  });
  return sessions;
}

/**
 * Validate the cells against the framings to analyse and lay them out: players and games sorted by name,
 * each game's actions the sorted union of the ids seen in its cells, its cooperative action and the
 * actions the caller knows it has.
 * Cells of framings outside the analysis are left out.
 */
export function planRobustness(
  cells: readonly CountCell[],
  framingsOption: readonly string[] | undefined,
  cooperativeAction: Readonly<Record<string, ActionId | null>>,
  /** Every action of a game where known (added to those the cells chose). */
  knownActions: Readonly<Record<string, readonly ActionId[]>> = {},
): RobustnessPlan {
  const sizes = cells.map(validateCell);
  const framings = framingsOption ?? [...new Set(cells.map((c) => c.framing))].sort(byText);
  if (framings.length < 2 || new Set(framings).size !== framings.length) {
    throw new Error(
      `Framings [${framings.join(", ")}] cannot be compared; robustness needs at least two distinct framings.`,
    );
  }
  const framingIndex = new Map(framings.map((f, i) => [f, i]));

  const unitCells = new Map<string, Map<string, Map<string, number>>>(); // player → game → framing → cell
  const gameActions = new Map<string, Set<ActionId>>();
  cells.forEach((cell, i) => {
    if (!framingIndex.has(cell.framing)) return;
    const games = unitCells.get(cell.player) ?? new Map<string, Map<string, number>>();
    unitCells.set(cell.player, games);
    const byFraming = games.get(cell.game) ?? new Map<string, number>();
    games.set(cell.game, byFraming);
    if (byFraming.has(cell.framing)) {
      throw new Error(
        `Cell (player '${cell.player}', game '${cell.game}', framing '${cell.framing}') appears twice; give each cell once.`,
      );
    }
    byFraming.set(cell.framing, i);
    const actions = gameActions.get(cell.game) ?? new Set<ActionId>();
    gameActions.set(cell.game, actions);
    for (const a of Object.keys(cell.counts)) actions.add(a);
  });
  if (unitCells.size === 0) {
    throw new Error(`No cell has one of the framings [${framings.join(", ")}]; there is nothing to analyse.`);
  }

  const actionsOf = new Map<string, ActionId[]>();
  for (const [game, actions] of gameActions) {
    if (!(game in cooperativeAction)) {
      throw new Error(
        `No cooperative action given for game '${game}'; set cooperativeAction['${game}'] to an action id or null.`,
      );
    }
    const c = cooperativeAction[game];
    if (c !== null && c !== undefined) actions.add(c);
    for (const a of knownActions[game] ?? []) actions.add(a);
    actionsOf.set(game, [...actions].sort(byText));
  }

  const plannedCells: PlannedCell[] = [];
  const units: PlannedUnit[] = [];
  const players: PlannedPlayer[] = [];
  let offset = 0;
  let decisions = 0;
  for (const player of [...unitCells.keys()].sort(byText)) {
    const games = unitCells.get(player) as Map<string, Map<string, number>>;
    const playerCells = [...games.values()].flatMap((m) => [...m.values()]).map((i) => cells[i] as CountCell);
    // Sessions are the unit when one made several decisions in a cell, or decisions in several cells.
    const ids = playerCells.flatMap((c) => c.cluster_ids ?? []);
    const spansCells = new Set(ids).size < ids.length;
    const unit: ResamplingUnit = spansCells || playerCells.some(hasSharedSessions) ? "session" : "decision";
    const playerUnits: number[] = [];
    let playerResampled: ResamplingUnit = "decision";
    for (const game of [...games.keys()].sort(byText)) {
      const byFraming = games.get(game) as Map<string, number>;
      const actions = actionsOf.get(game) as ActionId[];
      const unitCellIndices = framings.map((framing) => {
        const i = byFraming.get(framing);
        if (i === undefined) {
          throw new Error(
            `Framing '${framing}' is missing for player '${player}' and game '${game}'; present there: ${[...byFraming.keys()].join(", ")}.`,
          );
        }
        const n = sizes[i] as number;
        const cell = cells[i] as CountCell;
        const resampled: ResamplingUnit =
          unit === "session" && sessionCount(cell) >= MIN_RESAMPLED_SESSIONS ? "session" : "decision";
        plannedCells.push({ cell, n, offset, actions, unit, resampled });
        offset += actions.length;
        decisions += n;
        return plannedCells.length - 1;
      });
      const c = cooperativeAction[game] ?? null;
      const gameResampled = unitCellIndices.some((i) => plannedCells[i]?.resampled === "session")
        ? "session"
        : "decision";
      if (gameResampled === "session") playerResampled = "session";
      playerUnits.push(units.length);
      units.push({
        player,
        game,
        cells: unitCellIndices,
        cooperativeIndex: c === null ? -1 : actions.indexOf(c),
        cooperativeAction: c,
        unit: gameResampled,
      });
    }
    players.push({ player, units: playerUnits, unit: playerResampled });
  }

  const observed = new Int32Array(offset);
  for (const pc of plannedCells) {
    pc.actions.forEach((a, j) => {
      observed[pc.offset + j] = pc.cell.counts[a] ?? 0;
    });
  }
  return { framings, cells: plannedCells, units, players, observed, decisions };
}
