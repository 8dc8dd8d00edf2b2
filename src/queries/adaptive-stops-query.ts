import type { Note } from "../analysis/robustness/robustness-checks.js";
import type { GameStopping } from "../domain/adaptive/adaptive-stops.js";
import type { PlayDeps } from "../play/play-deps.js";
import { type loadStudy, schedulePosition } from "../play/studies.js";

type LoadedStudy = ReturnType<typeof loadStudy>;

/** Every (player, game) of an adaptive study where its rule stands; empty for a fixed design. */
export function studyStops(
  deps: PlayDeps,
  { study, design, cells }: LoadedStudy,
): { player: string; principal: string; games: GameStopping[] }[] {
  if (!design.adaptive) return [];
  return deps.store.studyPlayers(study.id).map(({ player, principal }) => ({
    player,
    principal,
    games: schedulePosition(deps, study, design, cells, player, principal).games,
  }));
}

/** Trials per cell the design expects of a (player, game): the blocks played when its rule stopped it. */
export function trialsPerCellOf(
  stops: ReturnType<typeof studyStops>,
  trialsPerCell: number,
): (player: string, game: string) => number {
  return (player, game) => {
    const stopped = stops
      .filter((s) => s.player === player)
      .flatMap((s) => s.games.filter((g) => g.game === game && g.stopped));
    if (stopped.length === 0) return trialsPerCell;
    return stopped.reduce((sum, g) => sum + (g.stopped?.blocks_played ?? 0), 0);
  };
}

/** The note an analysis of an adaptive study carries: which (player, game) stopped early, where and why. */
export function adaptiveStoppingNote(
  { design }: LoadedStudy,
  stops: ReturnType<typeof studyStops>,
  players: ReadonlySet<string>,
): Note | null {
  if (!design.adaptive) return null;
  const stopped = stops
    .filter((s) => players.has(s.player))
    .flatMap((s) =>
      s.games.flatMap((g) =>
        g.stopped
          ? [
              `${s.player} / ${g.game} after block ${g.stopped.block} of ${design.trials_per_cell} (${g.stopped.reason}; ${g.stopped.blocks_played} blocks played)`,
            ]
          : [],
      ),
    );
  // A design that names its test says so; one without keeps the wording it always had.
  const test = design.adaptive.test ? `, test ${design.adaptive.test}` : "";
  const rule = `Adaptive stopping (rule ${design.adaptive.rule}${test}, alpha ${design.adaptive.alpha})`;
  return {
    name: "adaptive_stopping",
    detail:
      stopped.length === 0
        ? `${rule}: no (player, game) stopped early.`
        : `${rule} stopped early: ${stopped.join("; ")}. Its framings stay balanced (whole blocks).`,
  };
}
