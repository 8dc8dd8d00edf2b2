import type { Note } from "../analysis/robustness/robustness-checks.js";
import { type GameStopping, stopWords } from "../domain/adaptive/adaptive-stops.js";
import { StudyDesignSchema } from "../domain/study-design.js";
import type { PlayDeps } from "../play/play-deps.js";
import { loadStudy, schedulePosition } from "../play/studies.js";
import { printable } from "./format.js";

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

/** Where the rule of a study stands for the (player, game)s analysed: stopped early, and rejected at the end. */
function stoppingText(
  { design }: LoadedStudy,
  stops: ReturnType<typeof studyStops>,
  analysed: (player: string, game: string) => boolean,
): { rule: string; early: string[]; atLast: string[] } {
  const early: string[] = [];
  const atLast: string[] = [];
  for (const s of stops) {
    for (const g of s.games) {
      if (!g.stopped || !analysed(s.player, g.game)) continue;
      const at = `after block ${g.stopped.block} of ${design.trials_per_cell} (${g.stopped.reason}`;
      if (stopWords(g.stopped.block, design.trials_per_cell) === "stopped early")
        early.push(`${s.player} / ${g.game} ${at}; ${g.stopped.blocks_played} blocks played)`);
      else atLast.push(`${s.player} / ${g.game} ${at}; every block played)`);
    }
  }
  // A design that names its test says so; one without keeps the wording it always had.
  const adaptive = design.adaptive;
  const test = adaptive?.test ? `, test ${adaptive.test}` : "";
  const rule = `Adaptive stopping (rule ${adaptive?.rule}${test}, alpha ${adaptive?.alpha})`;
  return { rule, early, atLast };
}

/**
 * The sentences of the note: the games stopped early (and what that does to the intervals above), then
 * the games whose rule rejected only at the last block, which the design played in full.
 */
function stoppingSentences({ rule, early, atLast }: ReturnType<typeof stoppingText>): string {
  const last =
    atLast.length === 0 ? "" : `rejected at the last block, so played in full: ${atLast.join("; ")}`;
  if (early.length === 0) return `${rule}: no (player, game) stopped early${last ? `; ${last}` : ""}.`;
  return (
    `${rule} stopped early: ${early.join("; ")}.${last ? ` It ${last}.` : ""} Its framings stay balanced ` +
    "(whole blocks). The intervals of R above are fixed-n intervals, whose coverage nothing bounds after an " +
    "early stop: quote the anytime-valid interval given here."
  );
}

/** The note an analysis of an adaptive study carries: which (player, game) stopped early, where and why. */
export function adaptiveStoppingNote(
  study: LoadedStudy,
  stops: ReturnType<typeof studyStops>,
  players: ReadonlySet<string>,
): Note | null {
  if (!study.design.adaptive) return null;
  return {
    name: "adaptive_stopping",
    detail: stoppingSentences(stoppingText(study, stops, (player) => players.has(player))),
  };
}

/**
 * The note of an analysis over the whole record (no study named), which may hold the decisions of
 * adaptive studies: given when some (player, game) analysed belongs to a study whose rule stopped it,
 * naming each such study, since the intervals of those decisions are no more fixed-n ones than in an
 * analysis of the study alone.
 */
export function recordStoppingNote(
  deps: PlayDeps,
  variant: string,
  /** The games analysed, and whether a (player, game) is. */
  games: ReadonlySet<string>,
  analysed: (player: string, game: string) => boolean,
): Note | null {
  const parts: string[] = [];
  for (const record of deps.store.listStudies()) {
    const design = StudyDesignSchema.parse(JSON.parse(record.design_json));
    // A study of none of the games analysed holds none of its decisions (and may be of another catalog).
    if (!design.adaptive || !design.games.some((game) => games.has(game))) continue;
    const study = loadStudy(deps, record.id);
    // The study's decisions of a game are analysed where it played the game in the analysed variant.
    const played = (game: string) => study.cells.some((c) => c.game === game && c.variant === variant);
    const text = stoppingText(study, studyStops(deps, study), (p, g) => played(g) && analysed(p, g));
    if (text.early.length === 0 && text.atLast.length === 0) continue;
    parts.push(`Study ${printable(record.name)} (${record.id}): ${stoppingSentences(text)}`);
  }
  return parts.length === 0 ? null : { name: "adaptive_stopping", detail: parts.join(" ") };
}
