import type { GameStopping } from "../domain/adaptive/adaptive-stops.js";
import type { StudyDesign } from "../domain/study-design.js";
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
  /** Finished trials of this cell by player. */
  finished: Record<string, number>;
}

export interface StudyProgress {
  study_id: string;
  name: string;
  design_hash: string;
  design: StudyDesign;
  trials_per_player: number;
  players: { player: string; finished: number; open: number }[];
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
  const key = (c: { game: string; variant: string; framing: string; style: string; opponent: string }) =>
    [c.game, c.variant, c.framing, c.style, c.opponent].join("\u0000");
  const byCell = new Map<string, Record<string, number>>();
  const players = new Map<string, { player: string; finished: number; open: number }>();
  for (const row of counts) {
    const cell = byCell.get(key(row)) ?? {};
    cell[row.player] = (cell[row.player] ?? 0) + row.finished;
    byCell.set(key(row), cell);
    const player = players.get(row.player) ?? { player: row.player, finished: 0, open: 0 };
    player.finished += row.finished;
    player.open += row.open;
    players.set(row.player, player);
  }
  return {
    study_id: study.id,
    name: study.name,
    design_hash: study.design_hash,
    design,
    trials_per_player: cells.length * design.trials_per_cell,
    players: [...players.values()].sort((a, b) => (a.player < b.player ? -1 : 1)),
    adaptive: studyStops(deps, { study, design, cells }),
    cells: cells.map((cell) => {
      const row = {
        game: cell.game,
        variant: cell.variant,
        framing: cell.framing,
        style: cell.style,
        opponent: cell.opponent.id,
      };
      return { ...row, finished: byCell.get(key(row)) ?? {} };
    }),
  };
}
