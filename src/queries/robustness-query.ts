import type { CountCell } from "../analysis/count-cells.js";
import { type OrderEffect, orderEffect } from "../analysis/order-effect/order-effect.js";
import { type RobustnessResult, robustnessAnalysis } from "../analysis/robustness/robustness.js";
import type { PlannedSize } from "../analysis/robustness/robustness-checks.js";
import { defaultContrast, isPlannedPair, partlyPlannedText } from "../domain/planned-contrasts.js";
import type { VariantId } from "../domain/types.js";
import type { PlayDeps } from "../play/play-deps.js";
import { loadStudy } from "../play/studies.js";
import { labelList } from "../report/label-list.js";
import { UsageError } from "../usage-error.js";
import { refuseAbsentFramings, refuseAbsentPlayersAndGames } from "./absent-filter-values.js";
import {
  adaptiveStoppingNote,
  recordStoppingNote,
  studyStops,
  trialsPerCellOf,
} from "./adaptive-stops-query.js";
import { type AskedFrom, filterNames } from "./filter-names.js";
import { type OneShotRead, readOneShot } from "./one-shot-cells.js";
import { playersWithoutValidDecisions } from "./players-without-valid-decisions.js";

export interface RobustnessQuery extends AskedFrom {
  players?: string[];
  games?: string[];
  /** Order matters: [0] is the baseline, [1] the comparison of the shift. Default: the study's first
   * planned contrast that covers every game analysed, else every framing present, sorted. */
  framings?: string[];
  variant?: VariantId;
  study_id?: string;
  attenuation?: number;
  bootstrap?: number;
  seed?: number;
  confidence?: number;
}

export type RobustnessReport = RobustnessResult & {
  variant: string;
  study_id: string | null;
  /** "planned" when the framings are a contrast the study registered for every game analysed,
   * "exploratory" otherwise. */
  contrast: "planned" | "exploratory" | null;
  /** (player, game) pairs left out because they lack a (valid) decision in one of the framings. */
  skipped: { player: string; game: string; missing: string[] }[];
  /** Per player: the choice rate of the first-listed action (live two-action decisions) against ½. */
  order_effect: OrderEffect[];
};

/**
 * The `robustness` tool and `analyze robustness`: counts aggregated by SQLite, folded into cells, then the
 * pure analysis. (player, game) pairs without every framing are left out and listed, not guessed.
 */
export function robustnessReport(
  deps: PlayDeps,
  query: RobustnessQuery,
  /** The one-shot read of exactly this query's filter, when the caller already made it (the report). */
  given?: OneShotRead,
): RobustnessReport {
  const variant = query.variant ?? "base";
  const study = query.study_id ? loadStudy(deps, query.study_id) : null;
  const names = filterNames(query.surface);
  refuseAbsentPlayersAndGames(deps, { ...query, variants: [variant] }, { names });
  const read =
    given ??
    readOneShot(deps.store, {
      players: query.players,
      games: query.games,
      variants: [variant],
      study_id: query.study_id,
    });
  const all = [...read.cells];
  if (all.length === 0) {
    // Players with matches whose rounds were all void (or forfeit, or open) are named, with why.
    const without = playersWithoutValidDecisions(
      deps,
      { players: query.players, games: query.games, variants: [variant], study_id: query.study_id },
      new Set(),
      "one-shot",
    );
    throw new UsageError(
      noDecisionsMessage(
        query,
        variant,
        without.map((p) => p.reason),
      ),
    );
  }
  // A contrast registered for some games only is no default where other games are analysed.
  const planned = study && defaultContrast(study.design, [...new Set(all.map((c) => c.game))]);
  const framings =
    query.framings ??
    (planned ? [planned.baseline, planned.comparison] : [...new Set(all.map((c) => c.framing))].sort());
  const present = [...new Set(all.map((c) => c.framing))].sort();
  if (framings.length < 2 || new Set(framings).size !== framings.length) {
    throw new UsageError(
      `Robustness compares at least two distinct framings; ${query.framings ? `${names.framings} gave ${labelList(framings) || "none"}` : `the record has decisions under ${labelList(present)} only`} (framings with decisions: ${labelList(present)}).`,
    );
  }
  if (query.framings) refuseAbsentFramings(query.framings, new Set(present), names.framings);
  const { complete, skipped } = completeUnits(all, framings);
  if (complete.length === 0) {
    throw new UsageError(
      `No (player, game) has decisions in every framing of ${labelList(framings)}${query.framings || planned ? "" : " (by default every framing of the record)"}; framings by game: ${framingsByGame(all)}. Name the framings to compare (${names.framings}).`,
    );
  }
  const games = [...new Set(complete.map((c) => c.game))];
  const stops = study ? studyStops(deps, study) : [];
  const cooperativeAction = Object.fromEntries(games.map((g) => [g, deps.catalog.game(g).cooperativeAction]));
  const actions = Object.fromEntries(games.map((g) => [g, deps.catalog.game(g).actions]));
  const result = robustnessAnalysis(complete, {
    framings,
    attenuation: query.attenuation,
    bootstrap: query.bootstrap,
    seed: query.seed,
    confidence: query.confidence,
    cooperativeAction,
    actions,
    expected: study
      ? designSize(
          study,
          variant,
          complete,
          framings,
          trialsPerCellOf(stops, study.design.trials_per_cell),
          deps.store.oneShotTrialsWithoutDecision({
            players: query.players,
            games: query.games,
            variants: [variant],
            study_id: study.study.id,
          }),
        )
      : undefined,
  });
  // Without a study the decisions may still include those of an adaptive study that stopped early.
  const units = new Set(complete.map((c) => JSON.stringify([c.player, c.game])));
  const stopsNote = study
    ? adaptiveStoppingNote(study, stops, new Set(complete.map((c) => c.player)))
    : recordStoppingNote(deps, variant, new Set(games), (player, game) =>
        units.has(JSON.stringify([player, game])),
      );
  const isPlanned = study && isPlannedPair(study.design, framings, games);
  const partly = study && partlyPlannedText(study.design, framings, games);
  // A player whose one-shot rounds hold no valid decision (all void …) is listed as left out, with why.
  const without = playersWithoutValidDecisions(
    deps,
    { players: query.players, games: query.games, variants: [variant], study_id: query.study_id },
    new Set(all.map((c) => c.player)),
    "one-shot",
  );
  const notes = [
    ...result.notes,
    ...(stopsNote ? [stopsNote] : []),
    ...(partly ? [{ name: "contrast_planned_elsewhere", detail: partly }] : []),
    ...(without.length > 0
      ? [{ name: "no_valid_decisions", detail: `Left out: ${without.map((p) => p.reason).join("; ")}.` }]
      : []),
  ];
  // The order effect over the same decisions (framings and players analysed), per player.
  const confidence = query.confidence ?? result.confidence;
  const order_effect = read
    .firstListed(games, framings)
    .filter((row) => row.decisions > 0 && result.players.some((p) => p.player === row.player))
    .map((row) => orderEffect(row.player, row.first_listed, row.decisions, confidence));
  return {
    ...result,
    notes,
    order_effect,
    variant,
    study_id: query.study_id ?? null,
    contrast: study ? (isPlanned ? "planned" : "exploratory") : null,
    skipped: [
      ...skipped,
      ...without.flatMap((p) => p.games.map((game) => ({ player: p.player, game, missing: [...framings] }))),
    ],
  };
}

function completeUnits(cells: CountCell[], framings: readonly string[]) {
  const byUnit = new Map<string, CountCell[]>();
  for (const cell of cells) {
    if (!framings.includes(cell.framing)) continue;
    const key = JSON.stringify([cell.player, cell.game]);
    byUnit.set(key, [...(byUnit.get(key) ?? []), cell]);
  }
  const complete: CountCell[] = [];
  const skipped: RobustnessReport["skipped"] = [];
  for (const unit of byUnit.values()) {
    const present = new Set(unit.map((c) => c.framing));
    const missing = framings.filter((f) => !present.has(f));
    const first = unit[0] as CountCell;
    if (missing.length === 0) complete.push(...unit);
    else skipped.push({ player: first.player, game: first.game, missing });
  }
  return { complete, skipped };
}

/**
 * What the registered design plans for the analysed players, games and framings, fully played (a game
 * stopped early: its blocks played), the cells of the record holding more decisions than planned, and the
 * trials of those cells played without a valid decision (`withoutDecision`: the study's one-shot trials
 * whose round was void or forfeit).
 */
function designSize(
  study: ReturnType<typeof loadStudy>,
  variant: string,
  cells: readonly CountCell[],
  framings: readonly string[],
  trialsPerCell: (player: string, game: string) => number,
  withoutDecision: readonly { player: string; game: string; framing: string; trials: number }[],
): PlannedSize {
  const players = [...new Set(cells.map((c) => c.player))];
  const games = [...new Set(cells.map((c) => c.game))];
  const recorded = new Map<string, number>();
  for (const cell of cells) {
    const key = JSON.stringify([cell.player, cell.game, cell.framing]);
    const n = Object.values(cell.counts).reduce((sum, count) => sum + count, 0);
    recorded.set(key, (recorded.get(key) ?? 0) + n);
  }
  // A trial of each of the design's cells (styles × opponents) of this game, variant and framing per block.
  const designCells = (game: string, framing: string) =>
    study.cells.filter((c) => c.game === game && c.variant === variant && c.framing === framing).length;
  let decisions = 0;
  const over: string[] = [];
  for (const player of players) {
    for (const game of games) {
      for (const framing of framings) {
        const planned = trialsPerCell(player, game) * designCells(game, framing);
        const seen = recorded.get(JSON.stringify([player, game, framing])) ?? 0;
        decisions += planned;
        if (seen > planned) over.push(`${player}/${game}/${framing}: ${seen} of ${planned}`);
      }
    }
  }
  const analysed = new Set(
    players.flatMap((p) => games.flatMap((g) => framings.map((f) => JSON.stringify([p, g, f])))),
  );
  const without_decision = withoutDecision
    .filter((row) => analysed.has(JSON.stringify([row.player, row.game, row.framing])))
    .reduce((sum, row) => sum + row.trials, 0);
  return { cells: players.length * games.length * framings.length, decisions, over, without_decision };
}

function noDecisionsMessage(query: RobustnessQuery, variant: string, without: readonly string[]): string {
  const parts = [
    query.players && `players ${query.players.join(", ")}`,
    query.games && `games ${query.games.join(", ")}`,
    query.study_id && `study ${query.study_id}`,
    `variant ${variant}`,
  ].filter(Boolean);
  if (without.length > 0) {
    return `No valid one-shot decisions match ${parts.join(", ")}: ${without.join("; ")}; nothing to analyse.`;
  }
  return `No one-shot decisions match ${parts.join(", ")}; play some trials or import counts first.`;
}

/** "game: framing, framing; game: framing" over the cells given, sorted. */
function framingsByGame(cells: readonly { game: string; framing: string }[]): string {
  const byGame = new Map<string, Set<string>>();
  for (const { game, framing } of cells) {
    const set = byGame.get(game) ?? new Set<string>();
    set.add(framing);
    byGame.set(game, set);
  }
  return [...byGame.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([game, set]) => `${game}: ${labelList([...set].sort())}`)
    .join("; ");
}
