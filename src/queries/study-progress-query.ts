import type { GameStopping } from "../domain/adaptive/adaptive-stops.js";
import { canonicalJson } from "../domain/canonical-json.js";
import type { StudyCell, StudyDesign } from "../domain/study-design.js";
import type { PlayDeps } from "../play/play-deps.js";
import { loadStudy } from "../play/studies.js";
import { studyStops } from "./adaptive-stops-query.js";
import { type OutsideCatalog, outsideOf } from "./outside-catalog.js";

export interface StudySummary {
  study_id: string;
  name: string;
  design_hash: string;
  created_at: string;
  /** null when the design names games or framings the loaded catalog lacks (`outside_catalog`). */
  cells: number | null;
  trials_per_player: number | null;
  players: number;
  /** What of the design the loaded catalog lacks: the study was registered with another `--catalog`. */
  outside_catalog?: OutsideCatalog;
}

export interface CellProgress {
  game: string;
  variant: string;
  framing: string;
  style: string;
  opponent: string;
  /** The opponent's params as the design gives them: two cells may differ in these alone. */
  opponent_params: Record<string, unknown>;
  /** Finished trials of this cell by player. */
  finished: Record<string, number>;
}

export interface StudyProgress {
  study_id: string;
  name: string;
  design_hash: string;
  design: StudyDesign;
  trials_per_player: number;
  /** Per player: trials finished and open, and rounds void (no valid reply in five tries) or forfeit. */
  players: { player: string; finished: number; open: number; void: number; forfeit: number }[];
  cells: CellProgress[];
  /** Under adaptive stopping: every player's games, where each stands and where and why it stopped. */
  adaptive: { player: string; principal: string; games: GameStopping[] }[];
}

/** Every registered study with its size and how many players have taken trials. */
export function studyOverview(deps: PlayDeps): StudySummary[] {
  return deps.store.listStudies().map((record) => {
    const summary = {
      study_id: record.id,
      name: record.name,
      design_hash: record.design_hash,
      created_at: record.created_at,
      players: new Set(deps.store.studyTrialCounts(record.id).map((r) => r.player)).size,
    };
    // A study of games the catalog lacks is still listed: its cells are what cannot be counted.
    const stored = JSON.parse(record.design_json) as { games: string[]; framings: string[] };
    const outside = outsideOf(deps.catalog, stored.games, stored.framings);
    if (outside.games.length > 0 || outside.framings.length > 0) {
      return { ...summary, cells: null, trials_per_player: null, outside_catalog: outside };
    }
    const { design, cells } = loadStudy(deps, record.id);
    return { ...summary, cells: cells.length, trials_per_player: cells.length * design.trials_per_cell };
  });
}

/** One study's frozen design and, per cell and per player, how many trials are finished. */
export function studyProgress(deps: PlayDeps, studyId: string): StudyProgress {
  const { study, design, cells } = loadStudy(deps, studyId);
  const counts = deps.store.studyTrialCounts(study.id);
  const key = cellKeyOf(cells);
  const byCell = new Map<string, Record<string, number>>();
  const players = new Map<string, StudyProgress["players"][number]>();
  for (const row of counts) {
    const rowKey = key(row, JSON.parse(row.opponent_params) as Record<string, unknown>);
    const cell = byCell.get(rowKey) ?? {};
    cell[row.player] = (cell[row.player] ?? 0) + row.finished;
    byCell.set(rowKey, cell);
    const player = players.get(row.player) ?? {
      player: row.player,
      finished: 0,
      open: 0,
      void: 0,
      forfeit: 0,
    };
    player.finished += row.finished;
    player.open += row.open;
    players.set(row.player, player);
  }
  // A finished trial whose rounds are void holds no decision an analysis can count: said per player.
  for (const row of deps.store.roundStatusByPlayer({ study_id: study.id })) {
    const player = players.get(row.player);
    if (!player) continue;
    player.void += row.void;
    player.forfeit += row.forfeit;
  }
  return {
    study_id: study.id,
    name: study.name,
    design_hash: study.design_hash,
    design,
    trials_per_player: cells.length * design.trials_per_cell,
    players: [...players.values()].sort((a, b) => (a.player < b.player ? -1 : 1)),
    adaptive: studyStops(deps, { study, design, cells }),
    cells: cells.map((cell) => ({
      game: cell.game,
      variant: cell.variant,
      framing: cell.framing,
      style: cell.style,
      opponent: cell.opponent.id,
      opponent_params: cell.opponent.params,
      finished: byCell.get(key(cell, cell.opponent.params)) ?? {},
    })),
  };
}

type CellNames = { game: string; variant: string; framing: string; style: string };

/**
 * The key a trial is counted under: its cell's names and opponent, and the opponent's params where the
 * design lists that opponent more than once (random at even odds and at 9 to 1 are two cells). Elsewhere
 * the params are left out: an `agent` trial stores the forfeit delay it was given, not the design's params.
 */
function cellKeyOf(cells: readonly StudyCell[]) {
  const params = new Map<string, Set<string>>();
  for (const { opponent } of cells) {
    params.set(opponent.id, (params.get(opponent.id) ?? new Set()).add(canonicalJson(opponent.params)));
  }
  return (cell: CellNames & { opponent: string | { id: string } }, opponentParams: unknown): string => {
    const opponent = typeof cell.opponent === "string" ? cell.opponent : cell.opponent.id;
    const listedOnce = (params.get(opponent)?.size ?? 0) <= 1;
    return [
      cell.game,
      cell.variant,
      cell.framing,
      cell.style,
      opponent,
      listedOnce ? "" : canonicalJson(opponentParams),
    ].join("\u0000");
  };
}
