import { REPEATED_MEASURES } from "../analysis/comparison/repeated-replicates.js";
import { type CountCell, hasSharedSessions } from "../analysis/count-cells.js";
import type { Estimate } from "../analysis/robustness/robustness-checks.js";
import { MIN_RESAMPLED_SESSIONS } from "../analysis/robustness/robustness-plan.js";
import { createBinomialSampler, drawBinomials } from "../analysis/sampling/binomial-sampler.js";
import { createMultiplicitySampler, drawClusterSums } from "../analysis/sampling/cluster-multiplicities.js";
import { createBootstrapRng, type UniformSource } from "../analysis/sampling/fast-rng.js";
import { percentileInterval } from "../analysis/sampling/percentile.js";
import { canonicalJson } from "../domain/canonical-json.js";
import { catalogArgument } from "../domain/shipped-catalogs.js";
import type { PlayDeps } from "../play/play-deps.js";
import { loadStudy } from "../play/studies.js";
import { referenceCitation } from "../reference-data/reference-data.js";
import { type ReportLeaderboard, withLeaderboard } from "../report/join-leaderboard.js";
import { csvList, labelList } from "../report/label-list.js";
import {
  type AnalysisNote,
  type CooperationCell,
  type EquilibriumCell,
  type EstimateWithCi,
  type ImportedSource,
  type Leaderboard,
  type RepeatedCell,
  type ReportData,
  type RobustnessResult,
  repeatedCellOf,
  type SensitivityResult,
  type VerificationCheck,
} from "../report/report-data.js";
import { robustnessCoverageNote } from "../report/robustness-coverage.js";
import { SERVER_VERSION } from "../server-version.js";
import type { CellActionCountRow } from "../store/aggregates/analysis-reads.js";
import { FULL_INTEGRITY_CHECK_MAX_BYTES } from "../store/record-file.js";
import { UsageError } from "../usage-error.js";
import { refuseAbsentFramings } from "./absent-filter-values.js";
import { equilibriumDeviationByCell } from "./equilibrium-deviation-query.js";
import { type AskedFrom, filterNames } from "./filter-names.js";
import { leaderboardOrReason } from "./leaderboard-query.js";
import { type OneShotRead, readOneShot } from "./one-shot-cells.js";
import { repeatedMetrics } from "./repeated-metrics-query.js";
import { robustnessReport } from "./robustness-query.js";
import { sensitivityReport } from "./sensitivity-query.js";
import { shellWord } from "./shell-word.js";
import { spendSummary } from "./spend-query.js";
import { FramingsNotShared } from "./unshared-framings.js";

export interface ReportQuery extends AskedFrom {
  /** Only this study's live play; imported counts belong to no study and are then left out. */
  study_id?: string;
  /** Framings of the robustness analysis, baseline first; default the study's planned contrast. */
  framings?: string[];
  bootstrap?: number;
  seed?: number;
  title?: string;
  /** Where the record lives, shown in the header. */
  database?: string | null;
}

/**
 * Everything the HTML report shows, read from the record: one-shot cooperation rates (base variant), the
 * robustness and payoff-sensitivity analyses, and repeated-play cells with comprehension curves. A section
 * the record cannot fill (no one-shot play, no framing pair) is left empty and the report says so.
 */
export function reportData(deps: PlayDeps, query: ReportQuery = {}): ReportData {
  return withLeaderboard(reportSections(deps, query), reportLeaderboard(deps, query));
}

/**
 * The report's leaderboard alone: it reads and resamples the record by itself, so a server computes it
 * on another core while `reportSections` computes the rest, and joins them with `withLeaderboard`.
 */
export function reportLeaderboard(deps: PlayDeps, query: ReportQuery = {}): ReportLeaderboard {
  // Whether repeated_metrics of the same filter has a cell, without computing its metrics.
  const hasRepeated = deps.store.hasRepeatedRounds(query.study_id ? { study_id: query.study_id } : {});
  return rankedPlayers(deps, query, query.bootstrap ?? 10_000, query.seed ?? 1, hasRepeated);
}

/**
 * Every section of the report but the leaderboard (null here; see reportLeaderboard). Without the record's
 * integrity check when `integrity` is false: a server runs that apart (recordIntegrityCheck), on whichever
 * worker is free first, and appends it (withIntegrityCheck).
 */
export function reportSections(
  deps: PlayDeps,
  query: ReportQuery = {},
  { integrity = true }: { integrity?: boolean } = {},
): ReportData {
  const bootstrap = query.bootstrap ?? 10_000;
  const seed = query.seed ?? 1;
  const study = query.study_id ? loadStudy(deps, query.study_id).study : null;
  // Read once and shared by every section: the one-shot cells of the base variant.
  const read = readOneShot(deps.store, { variants: ["base"], study_id: query.study_id });
  const all = read.cells;
  if (query.framings !== undefined && all.length > 0) {
    refuseAbsentFramings(
      query.framings,
      new Set(all.map((c) => c.framing)),
      filterNames(query.surface).framings,
    );
  }
  // Cooperation rates, the shift and λ need a cooperative action; robustness (R) and the equilibrium
  // comparison do not, so a record of battle-of-the-sexes or matching-pennies alone still has them.
  const cells = all.filter((c) => deps.catalog.game(c.game).cooperativeAction !== null);
  const cooperation = cooperationCells(deps, cells, bootstrap, seed);
  const robustness = all.length > 0 ? robustnessSection(deps, query, bootstrap, seed, read) : null;
  const sensitivity =
    cells.length > 0 ? sensitivitySection(deps, query.study_id, bootstrap, seed, all) : null;
  const repeated = repeatedCells(deps, query.study_id);
  const players = new Set([...all.map((c) => c.player), ...repeated.map((c) => c.player)]);
  const imported: ImportedSource[] =
    query.study_id === undefined
      ? [
          ...deps.store.importedCountSources().map(({ source, rows, decisions, sessions, players }) => ({
            source,
            kind: "counts" as const,
            rows,
            decisions,
            sessions,
            players,
            citation: referenceCitation(source),
          })),
          ...deps.store.importedMatchSources().map(({ source, matches, decisions, players }) => ({
            source,
            kind: "transcripts" as const,
            rows: matches,
            decisions,
            sessions: null,
            players,
            citation: referenceCitation(source),
          })),
        ]
      : [];
  const missing: { section: string; reason: string }[] = robustness?.result
    ? []
    : [
        {
          section: "robustness",
          reason: all.length === 0 ? "no one-shot decisions" : (robustness?.reason ?? "not computed"),
        },
      ];
  const uncooperative = [...new Set(all.map((c) => c.game))]
    .filter((game) => deps.catalog.game(game).cooperativeAction === null)
    .sort();
  if (uncooperative.length > 0) {
    missing.push({
      section: "cooperation",
      reason: `${labelList(uncooperative)} ${uncooperative.length === 1 ? "has" : "have"} no cooperative action, so no cooperation rate (nor shift or λ); R and the equilibrium comparison cover ${uncooperative.length === 1 ? "it" : "them"}`,
    });
  }
  return {
    header: {
      title: query.title ?? (study ? `same-game report: ${study.name}` : "same-game report"),
      generated_at: new Date().toISOString(),
      database: query.database ?? null,
      study: study ? { id: study.id, name: study.name, design_hash: study.design_hash } : null,
      players: [...players].sort(),
      provenance: {
        server_version: SERVER_VERSION,
        catalog_fingerprint: deps.catalog.fingerprint,
        catalog: deps.catalog.userDir === null ? null : catalogArgument(deps.catalog.userDir),
        seed,
        bootstrap,
        command: reproduceCommand(query, bootstrap, seed, robustness?.result?.framings, deps.catalog.userDir),
        imported,
      },
    },
    cooperation,
    equilibrium: equilibriumCells(deps, all, query.study_id),
    spend: spendSummary(deps.store, query.study_id ?? null),
    missing,
    robustness: robustness?.result ?? null,
    leaderboard: null,
    sensitivity: sensitivity?.result ?? null,
    repeated,
    checks: [...(sensitivity?.checks ?? []), ...(integrity ? [recordIntegrityCheck(deps)] : [])],
    notes: [...(robustness?.notes ?? []), ...(sensitivity?.notes ?? [])],
  };
}

/**
 * The players ranked: one-shot play (R, shift, λ, exploitability) by `compare` under the report's study,
 * bootstrap and seed, on those of the report's framings every player played (the Robustness section leaves
 * out a (player, game) lacking one; a rank needs every player on the same framings), and repeated play (total points, cooperation, comprehension m) by a
 * comparison of its own on every repeated condition (the one-shot framings name no repeated framing), merged
 * into one leaderboard. Each part that cannot be ranked gives its reason, and the other part still stands.
 */
function rankedPlayers(
  deps: PlayDeps,
  query: ReportQuery,
  bootstrap: number,
  seed: number,
  hasRepeated: boolean,
): ReportLeaderboard {
  const common = { study_id: query.study_id, bootstrap, seed, surface: query.surface };
  const oneShot = leaderboardOrReason(deps, {
    ...common,
    framings: query.framings,
    shared_framings_only: true,
    repeated_play: false,
  });
  const repeated = hasRepeated ? leaderboardOrReason(deps, { ...common, one_shot: false }) : null;
  const reason = "reason" in oneShot ? oneShotReason(deps, query, oneShot.refusal, bootstrap, seed) : null;
  const first = "leaderboard" in oneShot ? oneShot.leaderboard : null;
  const second = repeated && "leaderboard" in repeated ? repeated.leaderboard : null;
  const repeatedReason =
    repeated && "reason" in repeated
      ? repeated.reason
      : repeated && second && second.rows.length === 0
        ? unrankedReason(repeated.skipped, repeated.notes)
        : null;
  // What repeated play's ranks leave out (a condition played once, groups sharing none) stays beside them.
  const repeatedNotes = repeated && "leaderboard" in repeated ? repeated.notes : [];
  if (!first || !second) return { leaderboard: first ?? second, reason, repeatedReason, repeatedNotes };
  return {
    leaderboard: {
      ...first,
      ...(second.conditions ? { conditions: second.conditions } : {}),
      // Each part is sorted by measure then rank, and every one-shot measure comes before the repeated ones.
      rows: [...first.rows, ...second.rows],
      ...leftOutOfEither(first, second),
    },
    reason,
    repeatedReason,
    repeatedNotes,
  };
}

/**
 * Why repeated play has no rank although the record has finished repeated matches: the comparison ran, but
 * no condition was played by every player (or no two players share one). Its own sentences say so, measure
 * by measure; without them the report would fall back on "the record has no finished repeated matches".
 */
function unrankedReason(
  skipped: readonly { measure: string; reason: string }[],
  notes: readonly string[],
): string {
  const repeatedMeasures: readonly string[] = REPEATED_MEASURES;
  const why = [
    ...skipped.filter((s) => repeatedMeasures.includes(s.measure)).map((s) => s.reason),
    ...notes.filter((n) => n.endsWith("so no ranks are given.")),
  ];
  return why.length > 0 ? why.join(" ") : "no repeated condition was played by every player.";
}

/** The players left out of either part's ranks (no valid decision there), each once. */
function leftOutOfEither(first: Leaderboard, second: Leaderboard): Pick<Leaderboard, "left_out"> {
  const all = [...(first.left_out ?? []), ...(second.left_out ?? [])];
  const once = all.filter((l, i) => all.findIndex((m) => m.group === l.group) === i);
  return once.length > 0 ? { left_out: once } : {};
}

/**
 * Why the one-shot ranks are missing. When a few players lack one of the report's framings, compare's own
 * wording ("every group played only …") would read as if all did: the report names them, and gives the
 * command that ranks the players that played every framing.
 */
function oneShotReason(
  deps: PlayDeps,
  query: ReportQuery,
  refusal: UsageError,
  bootstrap: number,
  seed: number,
): string {
  if (!(refusal instanceof FramingsNotShared)) return refusal.message;
  const ranks =
    refusal.complete.length >= 2
      ? `; the other players played them all, and ${rankOthersCommand(query, refusal, bootstrap, seed, deps.catalog.userDir)} ranks them`
      : "";
  return `a rank needs every player on the same two framings or more, and of ${labelList(refusal.framings)}, ${refusal.lacking}${ranks}.`;
}

/** `analyze compare` over the players that played every framing, on the report's record, study and settings. */
function rankOthersCommand(
  query: ReportQuery,
  refusal: FramingsNotShared,
  bootstrap: number,
  seed: number,
  catalog: string | null,
): string {
  const parts = ["same-game", "analyze", "compare"];
  if (query.database) parts.push("--db", shellWord(query.database));
  if (catalog !== null) parts.push("--catalog", shellWord(catalogArgument(catalog)));
  if (query.study_id) parts.push("--study", shellWord(query.study_id));
  parts.push("--players", shellWord(csvList(refusal.complete)));
  parts.push("--framings", shellWord(csvList(refusal.framings)));
  parts.push("--seed", String(seed), "--bootstrap", String(bootstrap));
  return parts.join(" ");
}

/** The command that recomputes this report: same record, catalog, study, framings, seed and bootstrap size. */
function reproduceCommand(
  query: ReportQuery,
  bootstrap: number,
  seed: number,
  framings: readonly string[] | undefined,
  catalog: string | null,
): string {
  const parts = ["same-game", "report"];
  if (query.database) parts.push("--db", shellWord(query.database));
  // The record's own games may be the user's: without their catalog the command would not run.
  if (catalog !== null) parts.push("--catalog", shellWord(catalogArgument(catalog)));
  if (query.study_id) parts.push("--study", shellWord(query.study_id));
  const pair = query.framings ?? framings;
  if (pair && pair.length > 0) parts.push("--framings", shellWord(csvList(pair)));
  parts.push("--seed", String(seed), "--bootstrap", String(bootstrap));
  return parts.join(" ");
}

/** Every analysed one-shot cell (all variants) beside the nearest Nash equilibrium of its game. */
function equilibriumCells(
  deps: PlayDeps,
  cells: readonly CountCell[],
  studyId: string | undefined,
): EquilibriumCell[] {
  const games = [...new Set(cells.map((c) => c.game))].sort();
  // One read of every game's counts rather than one per game: each read scans all the record's tallies.
  const rowsOf = new Map<string, CellActionCountRow[]>(games.map((g) => [g, []]));
  if (games.length > 0)
    for (const row of deps.store.cellActionCounts({ games, study_id: studyId }))
      rowsOf.get(row.game)?.push(row);
  return games.flatMap((game) =>
    equilibriumDeviationByCell(deps, { game, study_id: studyId }, rowsOf.get(game)).map((cell) => ({
      player: cell.player,
      game: cell.game,
      variant: cell.variant,
      framing: cell.framing,
      n: cell.decisions,
      distribution: { ...cell.distribution },
      equilibrium_strategy: { ...cell.deviation.equilibrium_strategy },
      total_variation: cell.deviation.total_variation,
      exploitability: cell.deviation.exploitability.normalized,
      template_persistence: cell.base_game ? cell.base_game.template_persistence : null,
    })),
  );
}

/**
 * SQLite's full integrity_check of the record file (start-up runs only the quicker quick_check); on a
 * record too large for it in a report's time, quick_check, and the detail says so.
 */
export function recordIntegrityCheck(deps: PlayDeps): VerificationCheck {
  const { pragma, result, bytes } = deps.store.integrityCheck();
  const why =
    pragma === "quick_check"
      ? ` (a ${Math.round(bytes / 2 ** 20)} MB record: above ${FULL_INTEGRITY_CHECK_MAX_BYTES / 2 ** 20} MB the report runs quick_check, which does not match every index entry against its table row; \`sqlite3 RECORD 'PRAGMA integrity_check'\` runs the full check)`
      : "";
  return { name: "record_integrity", ok: result === "ok", detail: `${pragma}: ${result}${why}` };
}

function withCi(value: Estimate): EstimateWithCi {
  return { estimate: value.estimate, ci: [value.ci[0], value.ci[1]] };
}

/**
 * Each cell's cooperation rate with a 95% percentile bootstrap interval, resampled the way the
 * robustness analysis resamples it: whole MCP sessions when a session made several decisions in the
 * cell's player's record and at least two decided in the cell, else Binomial(n, rate).
 */
function cooperationCells(
  deps: PlayDeps,
  cells: readonly CountCell[],
  bootstrap: number,
  seed: number,
): CooperationCell[] {
  const rng = createBootstrapRng(`${seed}:cooperation`);
  const clusteredPlayers = new Set(cells.filter(hasSharedSessions).map((c) => c.player));
  return cells.map((cell) => {
    const cooperative = deps.catalog.game(cell.game).cooperativeAction as string;
    const n = Object.values(cell.counts).reduce((s, c) => s + c, 0);
    const rate = (cell.counts[cooperative] ?? 0) / n;
    // As robustness draws it: by session where at least MIN_RESAMPLED_SESSIONS sessions decided in the cell
    // (one session redrawn whole would repeat its rate in every replicate), else by decision.
    const decided = clusteredPlayers.has(cell.player)
      ? (cell.clusters ?? []).flatMap((cluster, i) =>
          Object.values(cluster).some((c) => c > 0)
            ? [{ cluster, weight: cell.cluster_weights?.[i] ?? 1 }]
            : [],
        )
      : [];
    const sessions = decided.reduce((s, d) => s + d.weight, 0);
    const replicates =
      sessions >= MIN_RESAMPLED_SESSIONS
        ? sessionReplicates(
            decided.map((d) => d.cluster),
            decided.map((d) => d.weight),
            cooperative,
            bootstrap,
            rng,
          )
        : binomialReplicates(n, rate, bootstrap, rng);
    return {
      player: cell.player,
      game: cell.game,
      framing: cell.framing,
      rate,
      ci: percentileInterval(replicates, 0.95),
      n,
    };
  });
}

function binomialReplicates(n: number, rate: number, bootstrap: number, rng: UniformSource): Float64Array {
  const replicates = new Float64Array(bootstrap);
  drawBinomials(createBinomialSampler(n, rate), rng, bootstrap, replicates);
  for (let r = 0; r < bootstrap; r++) replicates[r] = (replicates[r] as number) / n;
  return replicates;
}

/**
 * The cooperation rate over the cell's sessions drawn with replacement. Sessions with the same (size,
 * cooperative count) are one type drawn by its multiplicity (cluster-multiplicities), so a replicate
 * costs the distinct types, not the sessions; `weights` = how many sessions a listed cluster stands for.
 */
function sessionReplicates(
  sessions: readonly Record<string, number>[],
  weights: readonly number[] | undefined,
  cooperative: string,
  bootstrap: number,
  rng: UniformSource,
): Float64Array {
  const typeOf = new Map<string, number>();
  const table: number[] = []; // per type: cooperative count, size
  const typeWeights: number[] = [];
  sessions.forEach((s, i) => {
    const size = Object.values(s).reduce((sum, c) => sum + c, 0);
    const hit = s[cooperative] ?? 0;
    const key = `${size}:${hit}`;
    let t = typeOf.get(key);
    if (t === undefined) {
      t = typeWeights.length;
      typeOf.set(key, t);
      table.push(hit, size);
      typeWeights.push(0);
    }
    typeWeights[t] = (typeWeights[t] as number) + (weights?.[i] ?? 1);
  });
  const sums = new Int32Array(2 * bootstrap);
  drawClusterSums(createMultiplicitySampler(typeWeights), Int32Array.from(table), 2, rng, bootstrap, sums);
  const rates = new Float64Array(bootstrap);
  for (let r = 0; r < bootstrap; r++) rates[r] = (sums[2 * r] as number) / (sums[2 * r + 1] as number);
  return rates;
}

/** The robustness analysis, or null with a note saying why it could not run (e.g. one framing only). */
function robustnessSection(
  deps: PlayDeps,
  query: ReportQuery,
  bootstrap: number,
  seed: number,
  read: OneShotRead,
): { result: RobustnessResult | null; notes: AnalysisNote[]; reason?: string } {
  try {
    const report = robustnessReport(
      deps,
      { study_id: query.study_id, framings: query.framings, bootstrap, seed, surface: query.surface },
      read,
    );
    const result: RobustnessResult = {
      unit: report.unit,
      attenuation: report.attenuation,
      bootstrap: report.bootstrap,
      seed: report.seed,
      framings: [...report.framings],
      games: report.games.map((g) => ({
        player: g.player,
        game: g.game,
        R: withCi(g.R),
        shift: g.shift ? withCi(g.shift) : null,
      })),
      players: report.players.map((p) => ({
        player: p.player,
        unit: p.unit,
        R: withCi(p.R),
        shift: p.shift ? withCi(p.shift) : null,
      })),
      pooled: { R: withCi(report.pooled.R), shift: report.pooled.shift ? withCi(report.pooled.shift) : null },
      checks: report.checks.map(({ name, ok, detail }) => ({ name, ok, detail })),
      notes: report.notes.map(({ name, detail }) => ({ name, detail })),
      order_effect: report.order_effect.map((o) => ({
        player: o.player,
        decisions: o.decisions,
        first_listed_rate: withCi(o.first_listed_rate),
      })),
    };
    const coverage = robustnessCoverageNote(report.skipped);
    return { result, notes: coverage ? [coverage] : [] };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return {
      result: null,
      notes: [{ name: "robustness_coverage", detail: `Robustness not computed: ${error.message}` }],
      reason: error.message,
    };
  }
}

/** λ̂ per cell and the pooled maximum-likelihood λ per (player, framing), with their checks. */
function sensitivitySection(
  deps: PlayDeps,
  studyId: string | undefined,
  bootstrap: number,
  seed: number,
  cells: readonly CountCell[],
): { result: SensitivityResult; checks: VerificationCheck[]; notes: AnalysisNote[] } {
  const analysis = sensitivityReport(deps, { study_id: studyId, bootstrap, seed }, cells);
  return {
    result: {
      cells: analysis.cells.map(({ player, game, framing, lambda }) => ({ player, game, framing, lambda })),
      pooled: analysis.pooled.flatMap(({ player, framing, lambda }) =>
        lambda === null ? [] : [{ player, framing, lambda: withCi(lambda) }],
      ),
    },
    checks: analysis.checks.map(({ name, ok, detail }) => ({ name: `sensitivity_${name}`, ok, detail })),
    notes: analysis.notes.map(({ name, detail }) => ({ name: `sensitivity_${name}`, detail })),
  };
}

/** Repeated-play cells (SPEC §6) with the mean comprehension curve of each. */
function repeatedCells(deps: PlayDeps, studyId: string | undefined): RepeatedCell[] {
  const report = repeatedMetrics(deps, studyId ? { study_id: studyId } : {});
  const key = (c: (typeof report.cells)[number]) =>
    [c.player, c.game, c.variant, c.framing, c.opponent, canonicalJson(c.opponent_params)].join("\u0000");
  const sorted = [...report.cells].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return sorted.map(repeatedCellOf);
}
