import { fixed, interval, table } from "../queries/format.js";
import { type ReportData, reportChecks, reportNotes } from "../report/report-data.js";

// The demo's printed tables: the same numbers the HTML report charts, for a reader at the terminal.

export function robustnessTable(report: ReportData): string {
  const result = report.robustness;
  if (!result) return "Robustness: not computed (no framing pair with decisions in both framings).";
  const [baseline, comparison] = result.framings;
  const rows = [
    ...result.games.map((g) => [g.player, g.game, g.R, g.shift] as const),
    ...result.players.map((p) => [p.player, "all games", p.R, p.shift] as const),
  ].map(([player, game, R, shift]) => [
    player,
    game,
    fixed(R.estimate),
    interval(R.ci),
    fixed(shift?.estimate),
    interval(shift?.ci),
  ]);
  return [
    `Robustness R (1 = the story changes nothing) and cooperation shift ${baseline} → ${comparison}, 95% CIs (${result.bootstrap} bootstrap replicates by ${result.unit}):`,
    table(["player", "game", "R", "R 95% CI", "shift", "shift 95% CI"], rows),
  ].join("\n");
}

export function sensitivityTable(report: ReportData): string {
  const pooled = report.sensitivity?.pooled ?? [];
  if (pooled.length === 0) return "Payoff sensitivity λ: not computed.";
  return [
    "Payoff sensitivity λ (0 = payoff-blind, 20 = the cap), fitted across games per framing, 95% CIs:",
    table(
      ["player", "framing", "λ", "λ 95% CI"],
      pooled.map((p) => [p.player, p.framing, fixed(p.lambda.estimate, 2), interval(p.lambda.ci, 2)]),
    ),
  ].join("\n");
}

export function repeatedTable(report: ReportData): string {
  const cells = report.repeated ?? [];
  if (cells.length === 0) return "Repeated play: no finished repeated matches.";
  const rounds = (cells[0]?.curve.length ?? 0) + 1;
  return [
    `Repeated play (means over matches; comprehension round m, ${rounds} = never):`,
    table(
      ["player", "game", "opponent", "matches", "points", "cooperation", "m"],
      cells.map((c) => [
        c.player,
        c.game,
        c.opponent,
        String(c.matches),
        fixed(c.mean_total_points, 1),
        fixed(c.mean_cooperation_rate, 2),
        fixed(c.mean_comprehension_round, 1),
      ]),
    ),
  ].join("\n");
}

/** The checks' verdict (invariants), then the notes' names (information; the report holds their detail). */
export function failedChecks(report: ReportData): string {
  const checks = reportChecks(report);
  const failed = checks.filter((c) => !c.ok);
  const verdict =
    failed.length === 0
      ? `Verification: all ${checks.length} checks passed.`
      : [
          `Verification: ${failed.length} of ${checks.length} checks failed:`,
          ...failed.map((c) => `  ${c.name}: ${c.detail}`),
        ].join("\n");
  const notes = reportNotes(report);
  return notes.length === 0
    ? verdict
    : `${verdict}\nNotes (information, not failures; detail in the report): ${notes.map((n) => n.name).join(", ")}.`;
}

/** The reference agent that chooses at random: the story cannot move it, so any "effect" it shows is chance. */
const RANDOM_AGENT = "uniform";

/**
 * Why the random agent can look swayed: names every shift interval of it that excludes 0, with the counts
 * behind it, and how often chance alone gives one. Empty when none does.
 */
export function randomAgentNote(report: ReportData): string {
  const result = report.robustness;
  if (!result) return "";
  const own = result.games.filter((g) => g.player === RANDOM_AGENT && g.shift !== null);
  const excludesZero = (ci: readonly [number, number]) => ci[0] > 0 || ci[1] < 0;
  const swayed = own.filter((g) => g.shift && excludesZero(g.shift.ci));
  if (swayed.length === 0) return "";
  const [baseline, comparison] = result.framings;
  const counts = (game: string, framing: string | undefined) => {
    const cell = (report.cooperation ?? []).find(
      (c) => c.player === RANDOM_AGENT && c.game === game && c.framing === framing,
    );
    return cell ? `${Math.round(cell.rate * cell.n)}/${cell.n}` : "?";
  };
  const k = own.length;
  const chance = 1 - 0.95 ** k;
  const listed = swayed
    .map(
      (g) =>
        `${g.game} (cooperated ${counts(g.game, baseline)} under ${baseline}, ${counts(g.game, comparison)} under ${comparison}; shift ${fixed(g.shift?.estimate)} ${interval(g.shift?.ci)})`,
    )
    .join(", ");
  return [
    `Note on the ${RANDOM_AGENT} agent: it chooses at random, so no story moves it, yet its shift interval excludes 0 in ${listed}.`,
    `That is chance: each of its ${k} shift intervals misses the true shift 0 in 5% of records, and these intervals are not adjusted for looking at ${k} games, so about ${Math.round(100 * chance)}% of seeds (1 − 0.95^${k}) show at least one such "effect" for a random agent. Read a single significant game with that in mind; the player-level shift (all games) is the one test for this agent.`,
  ].join("\n");
}
