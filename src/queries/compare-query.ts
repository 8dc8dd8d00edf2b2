import {
  type ComparisonMeasure,
  type ComparisonResult,
  compareGroups,
  NoSharedCells,
} from "../analysis/comparison/compare-groups.js";
import {
  compareRepeated,
  REPEATED_COMPARISON_METHOD,
  type RepeatedComparison,
} from "../analysis/comparison/compare-repeated.js";
import type { ComparisonInput } from "../analysis/comparison/comparison-rows.js";
import type { PooledModel } from "../analysis/comparison/pooled-measures.js";
import { REPEATED_MEASURES, type RepeatedMatchRow } from "../analysis/comparison/repeated-replicates.js";
import { tooFewReplicatesNote } from "../analysis/comparison/too-few-replicates-note.js";
import { exploitabilityBound, exploitabilityOf } from "../analysis/equilibrium/deviation.js";
import { bootstrapSettings } from "../analysis/sampling/bootstrap-options.js";
import { payoffDifference } from "../analysis/sensitivity/payoff-sensitivity.js";
import { defaultContrast } from "../domain/planned-contrasts.js";
import { VARIANT_IDS, type VariantId } from "../domain/types.js";
import type { PlayDeps } from "../play/play-deps.js";
import { loadStudy } from "../play/studies.js";
import { labelList } from "../report/label-list.js";
import type { RecordFilter } from "../store/records.js";
import type { ComparisonFactor } from "../store/store.js";
import { UsageError } from "../usage-error.js";
import { refuseAbsentFramings, refuseAbsentPlayersAndGames } from "./absent-filter-values.js";
import { repeatedComparisonRows } from "./compare-repeated-rows.js";
import { playerComparisonTallies } from "./comparison-tallies.js";
import { type AskedFrom, filterNames } from "./filter-names.js";
import { playersWithoutValidDecisions } from "./players-without-valid-decisions.js";
import { framingsNotShared } from "./unshared-framings.js";

export interface CompareQuery extends AskedFrom {
  /** What a group is (default: the player). */
  by?: ComparisonFactor;
  players?: string[];
  games?: string[];
  /** Order matters: [0] is the baseline and [1] the comparison of the shift. Default: the study's first
   * planned contrast that covers every game compared, else the framings every group played, sorted. */
  framings?: string[];
  variant?: VariantId;
  study_id?: string;
  bootstrap?: number;
  seed?: number;
  confidence?: number;
  /**
   * Rank on those of the framings (given, else the study's planned pair, else every framing of the record)
   * that every group played, rather than refusing one some group lacks. The report's leaderboard asks this:
   * it takes the Robustness section's framings, an analysis that leaves out a (player, game) lacking one of
   * them, so the same rule applies whether the framings were named or read from the record.
   */
  shared_framings_only?: boolean;
  /** Compare repeated play too (default). */
  repeated_play?: boolean;
  /**
   * Compare one-shot play too (default). The report ranks repeated play in a comparison of its own, on
   * every repeated condition rather than under the one-shot framings, so one part's refusal (two players
   * sharing no one-shot game) does not take the other's ranks with it.
   */
  one_shot?: boolean;
}

export type CompareReport = Omit<ComparisonResult, "skipped"> & {
  by: ComparisonFactor;
  variant: string;
  study_id: string | null;
  /** The measures of the contract this comparison does not give, and why. */
  skipped: { measure: ComparisonMeasure; reason: string }[];
  /** The conditions every group played, per repeated-play measure: its ranks are computed on them. */
  ranked_conditions?: RepeatedComparison["ranked_conditions"];
  /** What each group's repeated play was resampled by (matches, sessions, schedule positions). */
  repeated_units?: RepeatedComparison["units"];
  /** Players of the scope with matches but no valid decision, in no group; absent when there are none. */
  left_out?: { group: string; reason: string }[];
};

/**
 * The `compare` tool and `analyze compare`: the record's one-shot decisions counted by the chosen factor
 * (SQL GROUP BY), then the pure comparison; and its finished repeated matches, measured match by match and
 * compared on the (game, framing, opponent) conditions each pair played. Every pair is compared on the
 * cells both played; a one-shot pair that shares none is refused, naming both groups and what each played,
 * and so is a record with repeated play only whose groups share no condition.
 */
export function compareReport(deps: PlayDeps, query: CompareQuery): CompareReport {
  const report = withPlayersLeftOut(deps, query, comparedReport(deps, query));
  const note = tooFewReplicatesNote(report.pairs, report.bootstrap, report.confidence);
  return note === null ? report : { ...report, notes: [...report.notes, note] };
}

/**
 * A player of the comparison's scope with matches but no valid decision (every round void …) is in no
 * group: it is named in the notes and in `left_out`, with why, rather than missing from the ranks unsaid.
 */
function withPlayersLeftOut(deps: PlayDeps, query: CompareQuery, report: CompareReport): CompareReport {
  if (report.by !== "player") return report;
  const scope = {
    players: query.players,
    games: query.games,
    variants: [report.variant],
    study_id: query.study_id,
  };
  const games = query.repeated_play === false ? "one-shot" : query.one_shot === false ? "repeated" : "all";
  const without = playersWithoutValidDecisions(deps, scope, new Set(report.groups), games);
  if (without.length === 0) return report;
  return {
    ...report,
    notes: [...report.notes, ...without.map((p) => `Not ranked: ${p.reason}.`)],
    left_out: without.map((p) => ({ group: p.player, reason: p.reason })),
  };
}

function comparedReport(deps: PlayDeps, query: CompareQuery): CompareReport {
  const by = query.by ?? "player";
  const variant = query.variant ?? "base";
  // An unknown study is refused by name before anything is read.
  const study = query.study_id ? loadStudy(deps, query.study_id) : null;
  const filter = {
    players: query.players,
    games: query.games,
    variants: [variant],
    study_id: query.study_id,
  };
  refuseAbsentPlayersAndGames(deps, filter, { names: filterNames(query.surface) });
  const rows: ComparisonInput = query.one_shot === false ? [] : oneShotInput(deps, filter, by);
  const repeatedRows =
    query.repeated_play === false
      ? []
      : repeatedComparisonRows(deps, { ...filter, framings: query.framings }, by);
  // The framings narrow both parts (repeated play's rows are already read under them): a framing is refused
  // only when neither part played under it, and the one-shot part gets the named framings it played. When
  // it played none of them (the framings named are repeated play's), only repeated play is compared; its
  // framings were refused as "nothing matching was played" before, naming the one-shot ones alone.
  let oneShotQuery = query;
  if (query.framings) {
    const oneShotFramings = new Set(inputSize(rows) > 0 ? [...groupCells(rows)].map((r) => r.framing) : []);
    const played = new Set([...oneShotFramings, ...repeatedRows.map((r) => r.framing)]);
    if (query.framings.some((f) => !played.has(f)) && query.repeated_play !== false) {
      // The refusal names every framing with decisions or matches, repeated play's beyond those named too.
      for (const r of repeatedComparisonRows(deps, filter, by)) played.add(r.framing);
    }
    // A record with nothing in scope at all gets the sentence below, which says to play or import first.
    if (played.size > 0) refuseAbsentFramings(query.framings, played, filterNames(query.surface).framings);
    oneShotQuery = { ...query, framings: query.framings.filter((f) => oneShotFramings.has(f)) };
  }
  if (inputSize(rows) === 0 && repeatedRows.length === 0) {
    throw new UsageError(nothingToCompare(deps, query, filter, by, variant));
  }
  const oneShot =
    inputSize(rows) > 0 && (oneShotQuery.framings?.length !== 0 || repeatedRows.length === 0)
      ? compareOneShot(deps, oneShotQuery, rows, variant, study)
      : null;
  if (repeatedRows.length === 0) {
    const compared = oneShot as Compared;
    const reason =
      query.repeated_play === false
        ? "Repeated play was not asked for."
        : "No finished repeated matches match the filters.";
    const skipped = REPEATED_MEASURES.map((measure) => ({ measure, reason }));
    return {
      by,
      variant,
      study_id: query.study_id ?? null,
      ...compared,
      skipped: [...compared.skipped, ...skipped],
    };
  }
  const repeated = compareRepeated(repeatedRows, query);
  if (oneShot === null && repeated.pairs.length === 0) {
    const why = repeated.skipped.find((s) => s.measure === "points")?.reason ?? repeated.skipped[0]?.reason;
    // Two groups at least, but nothing comparable: what is missing is shared conditions played twice.
    const help =
      repeated.groups.length < 2
        ? "play repeated matches with another player or import transcripts (same-game import matches)."
        : "play the same conditions (game, framing, opponent) with every group, in 2 matches or more each, or import transcripts (same-game import matches).";
    throw new UsageError(
      query.one_shot === false
        ? `The repeated matches cannot be compared: ${why} To rank repeated play, ${help}`
        : `No one-shot decisions match ${describeFilter(query, variant)}, and the repeated matches cannot be compared: ${why} To rank repeated play, ${help}`,
    );
  }
  const base = oneShot ?? withoutOneShot(repeated, query, repeatedRows);
  return {
    by,
    variant,
    study_id: query.study_id ?? null,
    ...base,
    groups: [...new Set([...base.groups, ...repeated.groups])].sort(),
    pairs: [...base.pairs, ...repeated.pairs],
    ranks: [...base.ranks, ...repeated.ranks],
    ranked_conditions: repeated.ranked_conditions,
    repeated_units: repeated.units,
    family: `${base.family} Repeated play (points, cooperation, comprehension m): for each measure, the pairs that played a (game, framing, opponent) condition in common, on those conditions; ranks on the conditions every group played.`,
    method: [base.method, REPEATED_COMPARISON_METHOD].filter(Boolean).join(" "),
    notes: [...base.notes, ...repeated.notes],
    skipped: [...base.skipped, ...repeated.skipped],
  };
}

type Compared = Omit<CompareReport, "by" | "variant" | "study_id">;

/** R, the shift, λ and exploitability of the one-shot decisions. */
function compareOneShot(
  deps: PlayDeps,
  query: CompareQuery,
  rows: ComparisonInput,
  variant: VariantId,
  study: ReturnType<typeof loadStudy> | null,
): Compared {
  const names = filterNames(query.surface);
  const known = new Set([...groupCells(rows)].map((r) => r.framing));
  // A contrast registered for some games only is no default where other games are compared.
  const planned =
    study && defaultContrast(study.design, [...new Set([...groupCells(rows)].map((r) => r.game))]);
  const shared = sharedFramings(rows);
  const asked =
    query.framings ??
    (planned
      ? [planned.baseline, planned.comparison]
      : query.shared_framings_only
        ? [...known].sort()
        : shared);
  refuseAbsentFramings(asked, known, names.framings);
  const groups = [...new Set([...groupCells(rows)].map((r) => r.group))];
  if (groups.length === 1 && isNarrowed(query))
    throw new UsageError(oneGroupText(deps, query, groups[0] as string));
  const framings = query.shared_framings_only ? asked.filter((f) => shared.includes(f)) : asked;
  if (framings.length < 2 || new Set(framings).size !== framings.length) {
    // Some groups lack a framing the others played: those are named, and the others can be ranked.
    const target = query.framings ?? (planned ? [planned.baseline, planned.comparison] : [...known].sort());
    const gap =
      target.length >= 2 && new Set(target).size === target.length
        ? framingsNotShared(
            framingsByGroup(rows),
            target,
            [...known].sort(),
            (query.by ?? "player") === "player",
            query.surface,
          )
        : null;
    if (gap) throw gap;
    const given =
      framings.length < asked.length
        ? `of ${labelList(asked)} every group played only ${labelList(framings) || "none"}`
        : query.framings
          ? `${names.framings} gave ${labelList(framings) || "none"}`
          : `the groups share ${labelList(framings) || "none"}`;
    throw new UsageError(
      `compare needs at least two distinct framings every group played; ${given} (framings with decisions: ${labelList([...known].sort())}).`,
    );
  }
  const games = [...new Set([...groupCells(rows)].map((r) => r.game))];
  for (const g of games) deps.catalog.game(g);
  let result: ComparisonResult;
  try {
    result = compareGroups(rows, {
      framings,
      actionsOf: (g) => deps.catalog.game(g).actions,
      cooperativeAction: (g) => {
        const game = deps.catalog.game(g);
        return game.actions.length === 2 ? game.cooperativeAction : null;
      },
      pooled: pooledModel(deps, variant),
      bootstrap: query.bootstrap,
      seed: query.seed,
      confidence: query.confidence,
    });
  } catch (error) {
    if (error instanceof NoSharedCells) throw new UsageError(error.message);
    throw error;
  }
  const skipped: CompareReport["skipped"] = [];
  if (!result.pairs.some((p) => p.measure === "shift")) {
    skipped.push({
      measure: "shift",
      reason: "No shared game has two actions and a cooperative one, so no pair has a planned shift.",
    });
  }
  skipped.push(...result.skipped);
  return { ...result, skipped };
}

/** The one-shot part of a comparison of a record that holds repeated play only: every measure skipped. */
function withoutOneShot(
  repeated: RepeatedComparison,
  query: CompareQuery,
  rows: readonly RepeatedMatchRow[],
): Compared {
  const { bootstrap, seed, confidence } = bootstrapSettings(query);
  const reason = "No one-shot decisions match the filters; only repeated play is compared.";
  return {
    confidence,
    bootstrap,
    seed,
    framings: query.framings ?? [...new Set(rows.map((r) => r.framing))].sort(),
    groups: repeated.groups,
    group_details: [],
    pairs: [],
    ranks: [],
    ranked_games: [],
    family: "One-shot measures: none (no one-shot decisions).",
    method: "",
    notes: [],
    skipped: (["R", "shift", "lambda", "exploitability"] as const).map((measure) => ({ measure, reason })),
  };
}

/** λ's Δu_G and each distribution's exploitability, from the catalog's stage games of the variant. */
function pooledModel(deps: PlayDeps, variant: VariantId): PooledModel {
  // The catalog keeps one stage game object per (game, variant), so deviation.ts solves each game's
  // equilibria once for every replicate.
  const stage = (g: string) => deps.catalog.stageGame(g, variant);
  return {
    deltaU: (g) => {
      const cooperativeAction = deps.catalog.game(g).cooperativeAction;
      if (cooperativeAction === null) return null;
      return payoffDifference(g, { stage: stage(g), cooperativeAction }).delta_u;
    },
    cooperative: (g) => {
      const game = deps.catalog.game(g);
      return game.cooperativeAction === null ? -1 : game.actions.indexOf(game.cooperativeAction);
    },
    // equilibriumDeviation's normalised exploitability, from an evaluator prepared once per stage game.
    exploitability: (g, distribution) => exploitabilityOf(stage(g))(distribution),
    exploitabilityBound: (g) => exploitabilityBound(stage(g)),
  };
}

/**
 * The one-shot input: for the player factor, the tallies folded in one pass where the record allows
 * (comparison-tallies.ts), else the store's rows.
 */
function oneShotInput(deps: PlayDeps, filter: RecordFilter, by: ComparisonFactor): ComparisonInput {
  const tallies = by === "player" ? playerComparisonTallies(deps.store, filter) : null;
  return tallies === null ? deps.store.comparisonCounts(filter, by) : { tallies };
}

function inputSize(input: ComparisonInput): number {
  return "tallies" in input ? input.tallies.length : input.length;
}

/** The (group, game, framing) of every row, or of every group's cells, in the rows' order. */
function* groupCells(input: ComparisonInput): Iterable<{ group: string; game: string; framing: string }> {
  if (!("tallies" in input)) {
    yield* input;
    return;
  }
  for (const t of input.tallies)
    for (const { game, framing } of t.cells) yield { group: t.group, game, framing };
}

/** Each group's framings played (in some game). */
function framingsByGroup(rows: ComparisonInput): Map<string, Set<string>> {
  const byGroup = new Map<string, Set<string>>();
  for (const r of groupCells(rows)) byGroup.set(r.group, (byGroup.get(r.group) ?? new Set()).add(r.framing));
  return byGroup;
}

/** The framings every group played (in some game), sorted. */
function sharedFramings(rows: ComparisonInput): string[] {
  const sets = [...framingsByGroup(rows).values()];
  return [...(sets[0] ?? [])].filter((f) => sets.every((s) => s.has(f))).sort();
}

/**
 * Why nothing can be compared, and what would help: the filter that matched nothing (a factor other than
 * the player also needs the factor recorded), the variants of the finished repeated matches the record
 * does hold when none is of this one (repeated play is ranked within one variant), and how to add play.
 */
function nothingToCompare(
  deps: PlayDeps,
  query: CompareQuery,
  filter: RecordFilter,
  by: ComparisonFactor,
  variant: VariantId,
): string {
  const recorded = by === "player" ? "" : ` with a recorded ${by}`;
  const oneShot = query.one_shot !== false;
  const repeated = query.repeated_play !== false;
  const what = [oneShot && "one-shot decisions", repeated && "finished repeated matches"].filter(Boolean);
  // The variants whose finished repeated matches this comparison could group (by style, client or model
  // only the live matches with that factor recorded): another variant's matches without it would send the
  // reader to a --variant that finds nothing either.
  const groupable = (v: VariantId) => {
    const scope = { ...filter, framings: query.framings, variants: [v] };
    return by === "player"
      ? deps.store.hasRepeatedRounds(scope)
      : deps.store.repeatedMatchGroups(scope, by).length > 0;
  };
  const others = repeated ? VARIANT_IDS.filter((v) => v !== variant && groupable(v)) : [];
  const elsewhere =
    others.length > 0
      ? ` (the record's finished repeated matches are of variant${others.length > 1 ? "s" : ""} ${others.join(", ")}; repeated play is ranked within one variant, ${variant} here${query.variant ? "" : ", and same-game analyze compare --variant ranks another"})`
      : "";
  const add = [
    oneShot && "play some trials or import counts (same-game import counts)",
    repeated &&
      `play repeated matches of variant ${variant} or import transcripts (same-game import matches)`,
  ].filter(Boolean);
  return `No ${what.join(" or ")} match ${describeFilter(query, variant)}${recorded}${elsewhere}; ${add.join(", or ")}.`;
}

/** Whether the filters, not the record, may be what leaves a single group. */
function isNarrowed(query: CompareQuery): boolean {
  return Boolean(
    query.players?.length || query.games?.length || query.study_id || (query.variant ?? "base") !== "base",
  );
}

/**
 * Why one group is not a comparison when the filters chose it: the selection holds one, and (groups being
 * players) the record's other players, any of which `--players` can add.
 */
function oneGroupText(deps: PlayDeps, query: CompareQuery, group: string): string {
  const variant = query.variant ?? "base";
  const head = `A comparison needs at least two groups; the selection (${describeFilter(query, variant)}) holds only '${group}'`;
  if ((query.by ?? "player") !== "player") return `${head}.`;
  const where = query.study_id ? `study ${query.study_id}` : "the record";
  // A player the filter already names is no other player to add: it has nothing here (this is the
  // one-shot comparison's refusal, so it made no one-shot decision under the other filters).
  const named = (query.players ?? []).filter((p) => p !== group);
  const empty =
    named.length === 0
      ? ""
      : `, and ${labelList(named)} ${named.length === 1 ? "has" : "have"} no one-shot decisions in it`;
  const others = [...new Set(deps.store.recordedPlayerGames(query.study_id).map((r) => r.player))]
    .filter((p) => p !== group && !named.includes(p))
    .sort();
  return others.length === 0
    ? `${head}${empty}, and ${where} holds no other player.`
    : `${head}${empty}; the other players of ${where}: ${labelList(others)}.`;
}

function describeFilter(query: CompareQuery, variant: string): string {
  const parts = [
    query.players && `players ${query.players.join(", ")}`,
    query.games && `games ${query.games.join(", ")}`,
    query.study_id && `study ${query.study_id}`,
    `variant ${variant}`,
  ].filter(Boolean);
  return parts.join(", ");
}
